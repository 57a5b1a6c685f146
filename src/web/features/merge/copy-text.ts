/** Copies text; throws when the browser refuses (no permission, insecure context). */
export async function copyText(text: string): Promise<void> {
  if (!navigator.clipboard) throw new Error('Clipboard is not available');
  await navigator.clipboard.writeText(text);
}
