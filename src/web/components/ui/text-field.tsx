import { type InputHTMLAttributes, useId } from 'react';
import { Input } from './input';
import { Label } from './label';

export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  label: string;
}

/** A labelled input; the label is tied to the input so clicking it and screen readers both work. */
export function TextField({ label, className, ...props }: TextFieldProps) {
  const id = useId();
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>{label}</Label>
      <Input id={id} className={className} {...props} />
    </div>
  );
}
