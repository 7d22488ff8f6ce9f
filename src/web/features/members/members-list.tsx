import type { Member } from "../../../contracts/memberships";
import { Badge } from "../../components/ui/badge";
import { useMoney } from "../../lib/store-currency";
import { formatSaleDate } from "../sales/sale-format";
import { type MemberActionHandlers, MemberActionsMenu } from "./member-actions";
import { accessNote, INTERVAL_LABELS, periodDate, periodDateLine, STATUS_TONES } from "./member-format";

type ListProps = { members: Member[]; handlers: MemberActionHandlers };

export function MemberStatusBadge({ member }: { member: Pick<Member, "status" | "statusLabel"> }) {
  return (
    <Badge tone={STATUS_TONES[member.status]} className="whitespace-nowrap">
      {member.statusLabel}
    </Badge>
  );
}

/** Access ended early (a refund that ended the period, a failed payment past its grace days). */
function AccessNote({ member }: { member: Member }) {
  const note = accessNote(member);
  return note ? <p className="text-xs font-medium text-red-700">{note}</p> : null;
}

/**
 * In the table the product's title gives way first, so a long one never hides the tier; on a card,
 * where there is no pointer to show the title attribute, both wrap.
 */
function ProductAndTier({ member, wrap = false }: { member: Member; wrap?: boolean }) {
  const text = `${member.productTitle} · ${member.tierName}`;
  if (wrap) return <p className="wrap-anywhere text-muted">{text}</p>;
  return (
    <p className="flex min-w-0 text-muted" title={text}>
      <span className="min-w-0 truncate">{member.productTitle}</span>
      <span className="max-w-[50%] shrink-0 truncate">&nbsp;· {member.tierName}</span>
    </p>
  );
}

/** "Renews on" over its date, the date kept on one line. */
function PeriodDate({ member }: { member: Member }) {
  const { label, date } = periodDate(member);
  return (
    <p className="text-xs text-muted">
      {label} <span className="whitespace-nowrap tabular-nums">{date}</span>
    </p>
  );
}

/** Wide screens: one row per membership, the email over its product and tier. */
export function MembersTable({ members, handlers }: ListProps) {
  const money = useMoney();
  return (
    <table className="w-full table-fixed text-left text-sm">
      <thead className="border-y border-line bg-slate-50/70 text-xs tracking-wide text-muted uppercase">
        <tr>
          <th scope="col" className="py-2.5 pr-3 pl-6 font-medium">
            Member / Product · Tier
          </th>
          <th scope="col" className="w-28 px-3 py-2.5 text-right font-medium">
            Amount
          </th>
          <th scope="col" className="w-44 px-3 py-2.5 font-medium">
            Status
          </th>
          <th scope="col" className="w-40 px-3 py-2.5 font-medium">
            Started
          </th>
          <th scope="col" className="w-28 px-3 py-2.5 text-right font-medium">
            Lifetime spend
          </th>
          <th scope="col" className="w-14 py-2.5 pr-4 pl-1">
            <span className="sr-only">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody className="divide-y divide-line">
        {members.map((member) => (
          <tr key={member.id}>
            <td className="py-3 pr-3 pl-6">
              <p className="truncate font-medium text-ink" title={member.email}>
                {member.email}
              </p>
              <ProductAndTier member={member} />
            </td>
            <td className="px-3 py-3 text-right tabular-nums">
              <p className="font-medium text-ink">{money(member.amountCents, member.currency)}</p>
              <p className="text-muted">{INTERVAL_LABELS[member.interval]}</p>
            </td>
            <td className="space-y-1 px-3 py-3">
              <MemberStatusBadge member={member} />
              <PeriodDate member={member} />
              <AccessNote member={member} />
            </td>
            <td className="px-3 py-3 whitespace-nowrap text-muted tabular-nums">
              {formatSaleDate(member.startedAt)}
            </td>
            <td className="px-3 py-3 text-right font-medium text-ink tabular-nums">
              {money(member.lifetimeSpendCents, member.currency)}
            </td>
            <td className="py-2 pr-4 pl-1 text-right">
              <MemberActionsMenu member={member} handlers={handlers} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Phones: one card per membership. */
export function MemberCards({ members, handlers }: ListProps) {
  const money = useMoney();
  return (
    <ul className="divide-y divide-line border-t border-line">
      {members.map((member) => (
        <li key={member.id} className="flex items-start gap-2 px-4 py-3 text-sm">
          <div className="min-w-0 flex-1 space-y-1">
            <p className="font-medium wrap-anywhere text-ink">{member.email}</p>
            <ProductAndTier member={member} wrap />
            <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
              <MemberStatusBadge member={member} />
              <span className="font-medium text-ink tabular-nums">
                {money(member.amountCents, member.currency)} · {INTERVAL_LABELS[member.interval]}
              </span>
            </div>
            <AccessNote member={member} />
            <div className="flex flex-wrap gap-x-3 gap-y-1 text-xs text-muted tabular-nums">
              <span>{periodDateLine(member)}</span>
              <span>Started {formatSaleDate(member.startedAt)}</span>
              <span>Lifetime spend {money(member.lifetimeSpendCents, member.currency)}</span>
            </div>
          </div>
          <MemberActionsMenu member={member} handlers={handlers} />
        </li>
      ))}
    </ul>
  );
}
