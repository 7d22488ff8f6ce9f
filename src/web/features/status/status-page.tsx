import { useQuery } from "@tanstack/react-query";
import { format } from "date-fns";
import { CreditCard, type LucideIcon, Mail, Server, Upload } from "lucide-react";
import { type Health, healthSchema } from "../../../contracts/health";
import { PageShell } from "../../components/layout/page-shell";
import { Card } from "../../components/ui/card";
import { Spinner } from "../../components/ui/spinner";
import { api } from "../../lib/api";
import { cn } from "../../lib/utils";
import { ServiceRow } from "./service-row";

const SERVICES = [
  { name: "API", icon: Server, service: "database" },
  { name: "File Upload", icon: Upload, service: "storage" },
  { name: "Payment Processing", icon: CreditCard, service: "payments" },
  { name: "Email Delivery", icon: Mail, service: "mail" },
] as const satisfies readonly { name: string; icon: LucideIcon; service: keyof Health["services"] }[];

function useHealth() {
  return useQuery({
    queryKey: ["health"],
    // A degraded server answers 503 with the same body: that is a result, not a failure.
    queryFn: ({ signal }) => api("/api/health", { schema: healthSchema, expectedStatuses: [503], signal }),
    refetchInterval: 30_000,
    staleTime: 0,
  });
}

export function StatusPage() {
  const health = useHealth();
  // When the health check itself cannot be answered, the API is down, and so is everything behind it.
  const unreachable = health.isError;
  const isUp = (service: keyof Health["services"]) => !unreachable && health.data?.services[service] === "ok";
  const allUp = !unreachable && SERVICES.every(({ service }) => isUp(service));

  return (
    <PageShell>
      <section className="mx-auto max-w-3xl px-4 py-16 sm:px-6">
        <h1 className="text-3xl font-bold tracking-tight text-ink sm:text-4xl">System Status</h1>
        <p className="mt-3 text-muted">The current state of Flatfee's services.</p>

        {health.isPending ? (
          <div className="mt-10 flex justify-center">
            <Spinner label="Checking services" />
          </div>
        ) : (
          <>
            <div
              className={cn(
                "mt-10 rounded-2xl px-5 py-4 font-semibold",
                allUp
                  ? "bg-emerald-700 text-white"
                  : unreachable
                    ? "bg-red-700 text-white"
                    : "bg-amber-100 text-amber-950 ring-1 ring-amber-300",
              )}
              role="status"
            >
              {allUp
                ? "All systems operational"
                : unreachable
                  ? "We can't reach the API right now"
                  : "Some systems are experiencing problems"}
            </div>
            <Card className="mt-6">
              <ul className="divide-y divide-line">
                {SERVICES.map(({ name, icon, service }) => (
                  <ServiceRow key={name} name={name} icon={icon} up={isUp(service)} />
                ))}
              </ul>
            </Card>
            <p className="mt-4 text-sm text-muted">
              Last checked{" "}
              {format(health.dataUpdatedAt || health.errorUpdatedAt || Date.now(), "MMM d, yyyy HH:mm:ss")}.
              Our uptime target is 99.9%.
            </p>
          </>
        )}
      </section>
    </PageShell>
  );
}
