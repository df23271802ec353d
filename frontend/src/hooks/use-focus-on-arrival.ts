import { useEffect, type RefObject } from 'react';

/** Whether the user is typing somewhere: focus must not be taken from there. */
function typingIn(element: Element | null): boolean {
  if (!(element instanceof HTMLElement) || element === document.body) return false;
  if ((element as HTMLInputElement).disabled) return false;
  if (element.isContentEditable) return true;
  if (element instanceof HTMLTextAreaElement || element instanceof HTMLSelectElement) return true;
  return element instanceof HTMLInputElement && !['button', 'submit', 'reset', 'checkbox', 'radio'].includes(element.type);
}

/**
 * Moves the focus to `ref` (a heading with `tabIndex={-1}`) when it first appears, when
 * `enabled`: after a search the focus goes to its results rather than being dropped on
 * the page (the Search button it was on is disabled while the search runs, issue #26
 * item 9). A user typing in a field meanwhile keeps their place.
 */
export function useFocusOnArrival(ref: RefObject<HTMLElement | null>, enabled: boolean) {
  useEffect(() => {
    if (!enabled || typingIn(document.activeElement)) return;
    ref.current?.focus({ preventScroll: false });
  }, [ref, enabled]);
}
