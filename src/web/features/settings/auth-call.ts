/** Better Auth answers `{ data, error }`; this turns an error into a thrown Error carrying its message. */
export async function authCall<T>(
  call: Promise<{ data: T | null; error: { message?: string | undefined } | null }>,
): Promise<T> {
  const { data, error } = await call;
  if (error || data === null) throw new Error(error?.message || "Please try again");
  return data;
}
