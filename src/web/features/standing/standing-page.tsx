import { CheckCircle2 } from "lucide-react";
import { useId, useState } from "react";
import { Link } from "react-router";
import { toast } from "sonner";
import { ENFORCEMENT_POLICY_PATH, type EnforcementAction } from "../../../contracts/enforcement";
import { AppShell } from "../../components/layout/app-shell";
import { Badge } from "../../components/ui/badge";
import { Button } from "../../components/ui/button";
import { Card, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";
import { FieldError, fieldErrorProps } from "../../components/ui/field-error";
import { Label } from "../../components/ui/label";
import { RetryNotice } from "../../components/ui/retry-notice";
import { PageSpinner } from "../../components/ui/spinner";
import { Textarea } from "../../components/ui/textarea";
import { ApiError } from "../../lib/api";
import { RequireAuth } from "../auth/require-auth";
import { StateBadge } from "../operator/state-badge";
import { useFileAppeal, useStanding } from "./standing-api";
import { ActionItem } from "./standing-list";

/** The appeal form of one action in force: one open appeal at a time. */
function AppealForm({ action }: { action: EnforcementAction }) {
  const id = useId();
  const [body, setBody] = useState("");
  const [problem, setProblem] = useState<string>();
  const appeal = useFileAppeal();
  if (action.appeals.some((entry) => entry.status === "open")) {
    return (
      <p className="text-sm font-medium text-ink">
        Your appeal is with an operator. We'll email you the answer.
      </p>
    );
  }
  return (
    <form
      className="space-y-2 pt-2"
      onSubmit={(event) => {
        event.preventDefault();
        if (!body.trim()) return setProblem("Tell us why this action should be lifted.");
        setProblem(undefined);
        appeal.mutate(
          { actionId: action.id, body },
          {
            onSuccess: () => {
              setBody("");
              toast.success("Appeal sent. An operator will answer by email.");
            },
            onError: (error) =>
              setProblem(error instanceof ApiError ? error.message : "Couldn't send the appeal."),
          },
        );
      }}
    >
      <Label htmlFor={`${id}-appeal`}>Appeal</Label>
      <Textarea
        id={`${id}-appeal`}
        value={body}
        onChange={(event) => setBody(event.target.value)}
        rows={3}
        maxLength={5000}
        placeholder="Why should this be lifted? Include anything that helps (licences, a counter-notice)."
        {...fieldErrorProps(`${id}-problem`, problem)}
      />
      <FieldError id={`${id}-problem`} message={problem} />
      <Button type="submit" size="sm" disabled={appeal.isPending}>
        Send appeal
      </Button>
    </form>
  );
}

function Standing() {
  const standing = useStanding();
  if (standing.isPending) return <PageSpinner label="Loading your standing" />;
  if (standing.isError)
    return <RetryNotice message="We couldn't load your standing." onRetry={() => void standing.refetch()} />;
  const { state, inForce, past } = standing.data;
  return (
    <>
      {state === "good" && inForce.length === 0 ? (
        <Card>
          <CardHeader>
            <CardTitle className="flex items-center gap-2">
              <CheckCircle2 className="size-5 text-emerald-600" aria-hidden="true" />
              Good standing
            </CardTitle>
            <CardDescription>Nothing is restricting your store or your products.</CardDescription>
          </CardHeader>
        </Card>
      ) : (
        <Card className="overflow-hidden">
          <CardHeader className="pb-4">
            <CardTitle className="flex flex-wrap items-center gap-2">
              In force now{" "}
              {state === "good" ? (
                <Badge tone="danger">
                  {inForce.length === 1 ? "1 product taken down" : `${inForce.length} products taken down`}
                </Badge>
              ) : (
                <StateBadge state={state} />
              )}
            </CardTitle>
            <CardDescription>
              {state === "suspended"
                ? 'Your store and product pages show "This store is unavailable" and nothing can be bought.'
                : state === "restricted"
                  ? "You can't add products and buyers can't buy until this is lifted. Your pages stay public."
                  : 'These products show "This product is unavailable" and can\'t be bought.'}{" "}
              You can still sign in, export your sales and reach Settings.
            </CardDescription>
          </CardHeader>
          <ul className="divide-y divide-line border-t border-line" aria-label="In force">
            {inForce.map((action) => (
              <ActionItem key={action.id} action={action}>
                <AppealForm action={action} />
              </ActionItem>
            ))}
          </ul>
        </Card>
      )}
      {past.length > 0 && (
        <Card className="overflow-hidden">
          <CardHeader className="pb-4">
            <CardTitle>History</CardTitle>
            <CardDescription>Warnings, and actions lifted since.</CardDescription>
          </CardHeader>
          <ul className="divide-y divide-line border-t border-line" aria-label="History">
            {past.map((action) => (
              <ActionItem key={action.id} action={action} />
            ))}
          </ul>
        </Card>
      )}
    </>
  );
}

/** /settings/standing: the seller's standing, what is in force and why, and their appeals. */
export function StandingPage() {
  return (
    <RequireAuth>
      {() => (
        <AppShell>
          <div className="mx-auto max-w-2xl space-y-6">
            <div>
              <p className="text-sm">
                <Link to="/settings" className="text-brand-700 underline-offset-4 hover:underline">
                  Settings
                </Link>
              </p>
              <h1 className="text-3xl font-bold tracking-tight text-ink">Standing</h1>
              <p className="mt-1 text-sm text-muted">
                What Flatfee's operators have done about your store, why, and your appeals. Read the{" "}
                <a href={ENFORCEMENT_POLICY_PATH} className="text-brand-700 underline underline-offset-4">
                  enforcement policy
                </a>
                . Reports about your products, and your answers to them, are under{" "}
                <Link to="/dashboard/reports" className="text-brand-700 underline underline-offset-4">
                  Reports
                </Link>
                .
              </p>
            </div>
            <Standing />
          </div>
        </AppShell>
      )}
    </RequireAuth>
  );
}
