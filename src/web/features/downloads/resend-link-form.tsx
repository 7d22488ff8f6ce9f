import { type FormEvent, useId, useState } from "react";
import { resendLinkSchema } from "../../../contracts/orders";
import { Button } from "../../components/ui/button";
import { Input } from "../../components/ui/input";
import { Label } from "../../components/ui/label";
import { isAlreadyReported } from "../../lib/already-reported";
import { useResendLink } from "./downloads-api";

/**
 * Asks for a fresh download link by email. The link only ever goes to the email the product was
 * bought with, and the answer is the same whether or not that email bought it.
 */
export function ResendLinkForm({ productId }: { productId: string }) {
  const id = useId();
  const [email, setEmail] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const { mutate, isPending, data } = useResendLink();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = resendLinkSchema.safeParse({ productId, email });
    if (!parsed.success) {
      setProblem(parsed.error.issues[0]?.message ?? "Please enter a valid email");
      return;
    }
    setProblem(null);
    mutate(parsed.data, {
      onError: (error) => {
        if (!isAlreadyReported(error)) setProblem(error.message);
      },
    });
  };

  return (
    <form onSubmit={submit} noValidate className="space-y-3 text-left">
      <div className="space-y-1.5">
        <Label htmlFor={`${id}-email`}>Email you bought with</Label>
        <Input
          id={`${id}-email`}
          type="email"
          autoComplete="email"
          placeholder="you@example.com"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${id}-problem` : undefined}
        />
        {problem && (
          <p id={`${id}-problem`} role="alert" className="text-sm text-red-600">
            {problem}
          </p>
        )}
      </div>
      <Button type="submit" className="w-full" disabled={isPending}>
        {isPending ? "Sending..." : "Email me a new link"}
      </Button>
      {data && (
        <p role="status" className="rounded-lg bg-emerald-50 px-3 py-2 text-sm text-emerald-800">
          {data.message}
        </p>
      )}
    </form>
  );
}
