import { QueryClientProvider } from '@tanstack/react-query';
import { useEffect } from 'react';
import { AppLayout } from './components/layout/app-layout';
import { Toaster } from './components/ui/toaster';
import { TooltipProvider } from './components/ui/tooltip';
import { PaymentBanner } from './features/billing';
import { usePageviews } from './hooks/use-pageviews';
import { useScrollReset } from './hooks/use-scroll-reset';
import { queryClient } from './lib/query-client';
import { startAnalytics } from './lib/track';
import { AppRoutes } from './routes';

function RouteEffects() {
  usePageviews();
  useScrollReset();
  return null;
}

export function App() {
  useEffect(() => startAnalytics(), []);
  return (
    <QueryClientProvider client={queryClient}>
      <TooltipProvider>
        <RouteEffects />
        <AppLayout banner={<PaymentBanner />}>
          <AppRoutes />
        </AppLayout>
        <Toaster />
      </TooltipProvider>
    </QueryClientProvider>
  );
}
