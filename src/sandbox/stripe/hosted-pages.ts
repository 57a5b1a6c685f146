import { Hono } from 'hono';
import { checkoutPages } from './checkout-pages';
import { formatDate, formatMoney } from './format';
import { type HostedPagesOptions, notFoundPage, send } from './page-kit';
import { html, page, topBar } from './pages/layout';
import { portalPages } from './portal-pages';
import type { InvoiceRecord, StripeState } from './state';

export type { HostedPagesOptions } from './page-kit';

/**
 * The pages a person sees: Checkout (`/c/pay/{session id}`), the customer portal (`/p/session/{token}`)
 * and hosted invoices (`/i/{token}`). Plain forms posted back here; every change goes through the same
 * billing engine as the API and sends the same webhooks.
 */
export function createHostedPages(options: HostedPagesOptions): Hono {
  const app = new Hono();
  app.route('/', checkoutPages(options));
  app.route('/', portalPages(options));
  app.get('/i/:token', (c) => {
    const state = options.store.value;
    const invoice = Object.values(state.invoices).find(
      (candidate) => candidate.token === c.req.param('token'),
    );
    if (!invoice) return send(c, notFoundPage());
    return send(c, invoicePage(state, invoice));
  });
  return app;
}

function invoicePage(state: StripeState, invoice: InvoiceRecord) {
  const money = (amount: number) => formatMoney(amount, invoice.currency);
  const customer = state.customers[invoice.customer];
  const due = Math.max(0, invoice.total + invoice.startingBalance);
  const paid = invoice.status === 'paid';
  return page(
    `Invoice ${invoice.number}`,
    html`${topBar('Crossfade')}
<main><section class="panel" aria-labelledby="invoice-title">
  <h1 id="invoice-title">Invoice ${invoice.number}</h1>
  <p class="muted">Billed to ${customer?.email ?? invoice.customer} · ${formatDate(invoice.created)} · ${paid ? 'Paid' : 'Due'}</p>
  <table><thead><tr><th scope="col">Description</th><th scope="col">Amount</th></tr></thead><tbody>
  ${invoice.lines.map((line) => html`<tr><td>${line.description}</td><td>${money(line.amount)}</td></tr>`)}
  ${invoice.startingBalance !== 0 ? html`<tr><td>Applied balance</td><td>${money(Math.max(invoice.startingBalance, -invoice.total))}</td></tr>` : ''}
  <tr><th scope="row">Amount ${paid ? 'paid' : 'due'}</th><td><strong>${money(paid ? invoice.amountPaid : due)}</strong></td></tr>
  </tbody></table>
</section></main>`,
  );
}
