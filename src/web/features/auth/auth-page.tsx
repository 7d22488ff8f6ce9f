import { Check } from "lucide-react";
import { Link, Navigate, useSearchParams } from "react-router";
import { Logo } from "../../components/layout/logo";
import { Card } from "../../components/ui/card";
import { PageSpinner } from "../../components/ui/spinner";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "../../components/ui/tabs";
import { useSession } from "../../lib/session";
import { afterSignInPath } from "./after-sign-in";
import { LoginForm } from "./login-form";
import { ResetPasswordForm } from "./reset-password-form";
import { SignUpForm } from "./sign-up-form";

const SELLING_POINTS = [
  "Flat $10/month, unlimited products",
  "0% of your sales, ever",
  "Payments straight to your own Stripe",
  "Secure, expiring download links",
];

type AuthTab = "signup" | "login";

/** `/auth?tab=login` opens on the Login tab (e.g. after a password reset); Sign Up is the default. */
function AuthTabs({ initialTab }: { initialTab: AuthTab }) {
  return (
    <Tabs defaultValue={initialTab}>
      <h1 className="text-2xl font-bold tracking-tight text-ink">Welcome to Flatfee</h1>
      <p className="mt-2 text-sm text-muted">Create your store or sign in to manage it.</p>
      <TabsList aria-label="Account" className="mt-6">
        <TabsTrigger value="signup">Sign Up</TabsTrigger>
        <TabsTrigger value="login">Login</TabsTrigger>
      </TabsList>
      <TabsContent value="signup">
        <SignUpForm />
      </TabsContent>
      <TabsContent value="login">
        <LoginForm />
      </TabsContent>
    </Tabs>
  );
}

export function AuthPage() {
  const [params] = useSearchParams();
  const isReset = params.get("reset") === "true";
  const afterSignIn = afterSignInPath(params.get("redirect"));
  const { user, isPending } = useSession();

  if (!isReset && isPending) return <PageSpinner label="Checking your session" />;
  if (!isReset && user) return <Navigate to={afterSignIn} replace />;

  return (
    <div className="grid min-h-dvh lg:grid-cols-2">
      <aside className="relative hidden overflow-hidden bg-gradient-to-br from-brand-700 via-brand-800 to-brand-900 p-12 text-white lg:flex lg:flex-col lg:justify-between">
        <div
          aria-hidden="true"
          className="pointer-events-none absolute -top-24 -right-24 size-96 rounded-full bg-brand-500/30 blur-3xl"
        />
        <Logo className="text-white [&_rect]:fill-white [&_path]:fill-brand-700" />
        <div className="relative">
          <p className="text-3xl font-bold tracking-tight text-balance">
            Sell your digital products. Keep every dollar.
          </p>
          <ul className="mt-8 space-y-3">
            {SELLING_POINTS.map((point) => (
              <li key={point} className="flex items-center gap-3 text-brand-100">
                <span className="flex size-6 items-center justify-center rounded-full bg-white/15">
                  <Check className="size-3.5 text-white" aria-hidden="true" />
                </span>
                {point}
              </li>
            ))}
          </ul>
        </div>
        <p className="relative text-sm text-brand-200">
          Only Stripe's processing fee applies to a sale. We take 0%.
        </p>
      </aside>
      <main className="flex flex-col items-center justify-center bg-canvas px-4 py-10 sm:px-6">
        <div className="mb-8 lg:hidden">
          <Logo />
        </div>
        <Card className="w-full max-w-md p-6 sm:p-8">
          {isReset ? (
            <ResetPasswordForm token={params.get("token")} linkError={params.has("error")} />
          ) : (
            <AuthTabs initialTab={params.get("tab") === "login" ? "login" : "signup"} />
          )}
        </Card>
        <p className="mt-6 max-w-md text-center text-xs text-muted">
          By continuing you agree to our{" "}
          <Link to="/terms" className="underline underline-offset-2 hover:text-ink">
            Terms of Service
          </Link>{" "}
          and{" "}
          <Link to="/privacy" className="underline underline-offset-2 hover:text-ink">
            Privacy Policy
          </Link>
          .
        </p>
      </main>
    </div>
  );
}
