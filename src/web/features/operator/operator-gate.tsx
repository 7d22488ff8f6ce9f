import type { ReactNode } from "react";
import { AppShell } from "../../components/layout/app-shell";
import { Card, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";
import { PageSpinner } from "../../components/ui/spinner";
import { ApiError } from "../../lib/api";
import { RequireAuth } from "../auth/require-auth";
import { NotFoundPage } from "../errors/not-found-page";
import { useOperator } from "./operator-api";
import { OPERATOR_SECTIONS } from "./operator-sections";

/**
 * Every /operator page: signed in, an operator (anyone else sees the ordinary 404 page, as the server
 * answers), with two-factor authentication on. Inside, the console's own navigation.
 */
export function OperatorGate({ children }: { children: ReactNode }) {
  return <RequireAuth>{() => <OperatorCheck>{children}</OperatorCheck>}</RequireAuth>;
}

function OperatorCheck({ children }: { children: ReactNode }) {
  const { data: operator, error, isPending } = useOperator();
  if (isPending) return <PageSpinner label="Checking access" />;
  if (error instanceof ApiError && error.status === 403) {
    return (
      <AppShell sections={OPERATOR_SECTIONS} navLabel="Operator">
        <Card className="max-w-xl">
          <CardHeader>
            <CardTitle>Two-factor authentication needed</CardTitle>
            <CardDescription>{error.message}</CardDescription>
          </CardHeader>
        </Card>
      </AppShell>
    );
  }
  if (!operator) return <NotFoundPage />;
  return (
    <AppShell sections={OPERATOR_SECTIONS} navLabel="Operator">
      {children}
    </AppShell>
  );
}
