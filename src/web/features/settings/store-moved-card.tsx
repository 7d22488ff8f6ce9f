import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { toast } from "sonner";
import { z } from "zod";
import { Button } from "../../components/ui/button";
import { Card, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";
import { FieldError, fieldErrorProps } from "../../components/ui/field-error";
import { Input } from "../../components/ui/input";
import { Label } from "../../components/ui/label";
import { ApiError, api } from "../../lib/api";
import { sellerKeys } from "../../lib/seller-status";

const PATH = "/api/store-export/moved-to";
const movedSchema = z.object({ movedTo: z.string().nullable() });
const movedKey = (userId: string) => [...sellerKeys.all(userId), "store-moved"] as const;

/**
 * Settings → "Moved your store?": after importing the archive into a new store (docs/store-import.md), the
 * creator sends this store's visitors there. Product links keep working: an archive import keeps ids.
 */
export function StoreMovedCard({ userId }: { userId: string }) {
  const id = useId();
  const queryClient = useQueryClient();
  const saved = useQuery({
    queryKey: movedKey(userId),
    queryFn: ({ signal }) => api(PATH, { schema: movedSchema, signal }),
  });
  const [draft, setDraft] = useState<string>();
  const [problem, setProblem] = useState<string>();
  const save = useMutation({
    mutationFn: (movedTo: string | null) =>
      api(PATH, { method: "PUT", body: { movedTo }, schema: movedSchema }),
    onSuccess: (answer) => {
      queryClient.setQueryData(movedKey(userId), answer);
      setDraft(undefined);
      setProblem(undefined);
      toast.success(answer.movedTo ? "Visitors now go to your new store." : "Your store is here again.");
    },
    onError: (error) => setProblem(error instanceof ApiError ? error.message : "Couldn't save the address."),
  });
  const movedTo = saved.data?.movedTo ?? null;
  const value = draft ?? movedTo ?? "";
  return (
    <Card>
      <CardHeader>
        <CardTitle>Moved your store?</CardTitle>
        <CardDescription>
          Imported your archive into a store elsewhere? Give its address: your store page here then leads
          there, each product page leads to the same product there, and nothing can be bought here.
        </CardDescription>
      </CardHeader>
      <form
        noValidate
        className="space-y-3 px-6 pt-4 pb-6"
        onSubmit={(event) => {
          event.preventDefault();
          save.mutate(value.trim() === "" ? null : value.trim());
        }}
      >
        <div className="space-y-1.5">
          <Label htmlFor={`${id}-moved`}>New store address</Label>
          <Input
            id={`${id}-moved`}
            type="url"
            inputMode="url"
            placeholder="https://"
            value={value}
            onChange={(event) => setDraft(event.target.value)}
            maxLength={500}
            {...fieldErrorProps(`${id}-moved-error`, problem)}
          />
          <FieldError id={`${id}-moved-error`} message={problem} />
        </div>
        <div className="flex flex-wrap gap-3">
          <Button type="submit" disabled={save.isPending || saved.isPending}>
            Send visitors there
          </Button>
          {movedTo && (
            <Button
              type="button"
              variant="secondary"
              disabled={save.isPending}
              onClick={() => save.mutate(null)}
            >
              My store is here again
            </Button>
          )}
        </div>
      </form>
    </Card>
  );
}
