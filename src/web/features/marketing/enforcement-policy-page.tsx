import { LegalPage, type LegalSection } from "./legal-page";

const SECTIONS: LegalSection[] = [
  {
    title: "What we act on",
    body: (
      <p>
        Flatfee's operators act on reports from buyers, rights holders and the public, and on what they find
        themselves: products that infringe someone's rights, malware, fraud, deceptive listings, and anything
        else our Terms of Service forbid. Every action records who took it, when, and why, in a log that can't
        be changed afterwards.
      </p>
    ),
  },
  {
    title: "The actions",
    body: (
      <ul>
        <li>
          <strong>Warning</strong>: nothing changes in your store. We tell you what we found so you can fix
          it.
        </li>
        <li>
          <strong>Restriction</strong>: you can't add products and buyers can't buy anything until it is
          lifted. Your store and product pages stay public and you can still edit your products, so you can
          fix what was reported.
        </li>
        <li>
          <strong>Suspension</strong>: your store and product pages show "This store is unavailable" and
          nothing can be bought.
        </li>
        <li>
          <strong>Product taken down</strong>: one product's page shows "This product is unavailable" and it
          can't be bought. Your other products are not affected.
        </li>
        <li>
          <strong>Reinstatement</strong>: we lift a restriction, a suspension or a take-down, after an appeal
          or on our own review.
        </li>
      </ul>
    ),
  },
  {
    title: "What you are told",
    body: (
      <p>
        Every action is emailed to you at once: what we did, the reason in our own words, the report it comes
        from if there is one, and how to appeal. Your Standing page (Settings → Standing) shows the same, with
        the history of past actions. While restricted or suspended you can still sign in, reach Settings and
        your Standing page, and export your sales.
      </p>
    ),
  },
  {
    title: "Buyers keep their downloads",
    body: (
      <p>
        People who already bought from you keep their download links and library, whatever action we take.
        Only in serious cases (malware, for instance) do we also stop downloads when we suspend a store, and
        the email says so.
      </p>
    ),
  },
  {
    title: "Appeals",
    body: (
      <p>
        If you think an action is wrong, appeal it from your Standing page: tell us why, with anything that
        helps (a licence, proof that the work is yours). You can have one open appeal per action; an operator
        answers it by reinstating you or by upholding the action, with a reason, and you are emailed either
        way. After an answer you may appeal again with new information.
      </p>
    ),
  },
  {
    title: "Counter-notices",
    body: (
      <p>
        If a product was taken down after a copyright complaint and you believe it was a mistake or a
        misidentification, your appeal can be a counter-notice: name the product, state that you have a good
        faith belief it was removed by mistake, and give your contact details. We pass a valid counter-notice
        to the complainant and may reinstate the product unless they tell us they have started legal action.
      </p>
    ),
  },
];

/** /policy/enforcement: what operators do, what sellers are told, and how to appeal. */
export function EnforcementPolicyPage() {
  return (
    <LegalPage
      title="Enforcement policy"
      updated="November 27, 2026"
      intro={
        <p>
          How Flatfee deals with stores and products that break our rules: the actions we take, what we tell
          you, how you appeal, and what happens to your buyers.
        </p>
      }
      sections={SECTIONS}
    />
  );
}
