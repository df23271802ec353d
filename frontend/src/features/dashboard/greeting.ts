/** First word of the name, else the email, else 'there' (spec section 2). */
export function greetingName(user: { name?: string | null; email?: string | null } | null | undefined): string {
  const first = user?.name?.trim().split(/\s+/)[0];
  if (first) return first;
  const email = user?.email?.trim();
  if (email) return email;
  return 'there';
}
