/**
 * Hands `blob` to the browser as a download named `filename` (an anchor with `download`,
 * clicked and removed). The object URL is released a moment later, once the browser has
 * started the download.
 */
export function saveFile(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.style.display = 'none';
  document.body.appendChild(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 1000);
}
