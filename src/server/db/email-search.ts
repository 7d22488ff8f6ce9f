/** A trigram index needs 3 characters: a shorter term could only be answered by reading every customer. */
export const SUBSTRING_SEARCH_MIN_LENGTH = 3;

/**
 * The LIKE pattern of a (lower-cased) search term: anywhere in the email from 3 characters on, answered by
 * the trigram index; 1-2 characters match the start of the email, a range of the (seller_id, email)
 * index. LIKE's own characters (`%`, `_`, `\`) are escaped, so a term matches only itself.
 */
export function emailSearchPattern(term: string): string {
  const escaped = term.replace(/[\\%_]/g, "\\$&");
  return [...term].length < SUBSTRING_SEARCH_MIN_LENGTH ? `${escaped}%` : `%${escaped}%`;
}
