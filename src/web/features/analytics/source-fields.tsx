/**
 * Where the visit came from (`ref`, `utm_*`, as the server read them from the page's request), carried
 * in a form of a server-rendered page as hidden fields: Buy Now records them with the checkout, so the
 * sale is attributed to the visit that started it, with or without script.
 */
export function SourceFields({ source }: { source: Record<string, string> | undefined }) {
  return (
    <>
      {Object.entries(source ?? {}).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
    </>
  );
}
