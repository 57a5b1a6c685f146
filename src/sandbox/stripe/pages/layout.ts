/** The hosted pages' frame: plain HTML forms (no script), readable on a phone, labelled for screen readers. */

export const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** Tagged template that escapes every interpolated value unless it is already `Html`. */
export class Html {
  constructor(readonly text: string) {}
  toString() {
    return this.text;
  }
}

type Part = Html | string | number | null | undefined | false | readonly Html[];

export function html(strings: TemplateStringsArray, ...values: Part[]): Html {
  let out = strings[0] ?? '';
  values.forEach((value, index) => {
    if (Array.isArray(value)) out += value.map((item) => item.text).join('');
    else if (value instanceof Html) out += value.text;
    else if (value !== null && value !== undefined && value !== false) out += escapeHtml(String(value));
    out += strings[index + 1] ?? '';
  });
  return new Html(out);
}

const STYLE = `
*{box-sizing:border-box}
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1a1f36;background:#f6f8fa;line-height:1.45}
a{color:#4f46e5}
.bar{display:flex;align-items:center;justify-content:space-between;gap:1rem;padding:.75rem 1.25rem;background:#fff;border-bottom:1px solid #e3e8ee}
.badge{display:inline-block;font-size:.75rem;font-weight:600;letter-spacing:.02em;text-transform:uppercase;color:#8a4b00;background:#ffe9c7;border-radius:4px;padding:.1rem .45rem}
main{max-width:60rem;margin:0 auto;padding:1.5rem 1.25rem 3rem}
.columns{display:grid;gap:2rem}
@media(min-width:52rem){.columns{grid-template-columns:1fr 1fr;align-items:start}}
.panel{background:#fff;border:1px solid #e3e8ee;border-radius:10px;padding:1.25rem}
h1{font-size:1.35rem;margin:.25rem 0 1rem}
h2{font-size:1.05rem;margin:0 0 .75rem}
.amount{font-size:2rem;font-weight:700;margin:.25rem 0}
.muted{color:#5b6474;font-size:.92rem}
label{display:block;font-size:.88rem;font-weight:600;margin:.85rem 0 .3rem}
input,select{width:100%;font:inherit;padding:.6rem .7rem;border:1px solid #c9d1db;border-radius:6px;background:#fff}
input:focus,select:focus{outline:2px solid #4f46e5;outline-offset:1px}
input[aria-invalid=true]{border-color:#c0262d}
.row{display:grid;grid-template-columns:1fr 1fr;gap:.75rem}
.error{color:#a4161a;font-size:.9rem;margin:.35rem 0 0}
.alert{border:1px solid #f3b5b8;background:#fdecee;color:#7f1016;border-radius:6px;padding:.7rem .85rem;margin:.75rem 0}
.notice{border:1px solid #b7e4c7;background:#ecf9f0;color:#125a2c;border-radius:6px;padding:.7rem .85rem;margin:0 0 1rem}
button,.button{display:inline-block;font:inherit;font-weight:600;border:0;border-radius:6px;padding:.65rem 1rem;cursor:pointer;background:#4f46e5;color:#fff;text-decoration:none}
button.secondary,.button.secondary{background:#fff;color:#1a1f36;border:1px solid #c9d1db}
button.danger{background:#c0262d}
button:focus-visible,.button:focus-visible{outline:3px solid #1a1f36;outline-offset:2px}
.wide{width:100%;margin-top:1.25rem;padding:.8rem}
.hint{font-size:.88rem;background:#f0f4ff;border:1px solid #d6defa;border-radius:6px;padding:.6rem .8rem;margin-top:1rem}
table{width:100%;border-collapse:collapse;font-size:.92rem}
th,td{text-align:left;padding:.45rem .35rem;border-bottom:1px solid #eef1f4}
.actions{display:flex;flex-wrap:wrap;gap:.5rem;margin-top:.75rem}
.stack>*+*{margin-top:1.25rem}
fieldset{border:0;padding:0;margin:0}
legend{font-weight:600;font-size:.95rem;margin-bottom:.25rem}
`;

export function page(
  title: string,
  body: Html,
  options: { status?: number } = {},
): { html: string; status: number } {
  return {
    status: options.status ?? 200,
    html: `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
${body.text}
</body>
</html>`,
  };
}

export function topBar(left: Html | string): Html {
  return html`<header class="bar"><div>${left}</div><span class="badge">Test mode</span></header>`;
}

export const per = (interval: string, count: number) =>
  count === 1 ? `per ${interval}` : `every ${count} ${interval}s`;
