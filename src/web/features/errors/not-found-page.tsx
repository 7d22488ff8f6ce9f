import { Link } from "react-router";
import { PageShell } from "../../components/layout/page-shell";
import { Button } from "../../components/ui/button";

export function NotFoundPage() {
  return (
    <PageShell>
      <section className="mx-auto flex min-h-[60vh] max-w-xl flex-col items-center justify-center px-4 py-20 text-center">
        <p className="text-7xl font-bold tracking-tight text-brand-600">404</p>
        <h1 className="mt-4 text-3xl font-bold tracking-tight text-ink">Oops! Page not found</h1>
        <p className="mt-3 text-muted">The page you're looking for doesn't exist or has moved.</p>
        <Button asChild size="lg" className="mt-8">
          <Link to="/">Return to Home</Link>
        </Button>
      </section>
    </PageShell>
  );
}
