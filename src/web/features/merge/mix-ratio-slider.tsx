import * as SliderPrimitive from '@radix-ui/react-slider';
import { MIX_RATIO_STEP } from '../../../shared/api/merge';

/** Spec section 2: 0-100 in steps of 10, read as "X% You / Y% Friend". */
export function MixRatioSlider({ value, onChange }: { value: number; onChange: (value: number) => void }) {
  const label = `${value}% You / ${100 - value}% Friend`;
  return (
    <div className="grid gap-2">
      <div className="flex items-center justify-between text-sm">
        <span id="mix-ratio-label" className="font-medium text-slate-900">
          Mix Ratio
        </span>
        <span className="text-slate-700" data-testid="mix-ratio-value">
          {label}
        </span>
      </div>
      <SliderPrimitive.Root
        className="relative flex h-5 w-full touch-none select-none items-center"
        min={0}
        max={100}
        step={MIX_RATIO_STEP}
        value={[value]}
        onValueChange={([next]) => {
          if (next !== undefined) onChange(next);
        }}
      >
        <SliderPrimitive.Track className="relative h-2 w-full grow overflow-hidden rounded-full bg-slate-200">
          <SliderPrimitive.Range className="absolute h-full bg-violet-700" />
        </SliderPrimitive.Track>
        <SliderPrimitive.Thumb
          aria-labelledby="mix-ratio-label"
          aria-valuetext={label}
          className="block h-5 w-5 rounded-full border-2 border-violet-700 bg-white shadow focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-violet-600 focus-visible:ring-offset-2"
        />
      </SliderPrimitive.Root>
    </div>
  );
}
