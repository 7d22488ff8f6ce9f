import { useId, useState } from "react";
import { toast } from "sonner";
import { renderPostMarkup } from "../../../contracts/post-markup";
import {
  POST_LIMITS,
  POST_MESSAGES,
  type PostField,
  type PostProduct,
  type SellerPost,
} from "../../../contracts/posts";
import { Button } from "../../components/ui/button";
import { Card, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";
import { FieldError, fieldErrorProps } from "../../components/ui/field-error";
import { Input } from "../../components/ui/input";
import { Label } from "../../components/ui/label";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "../../components/ui/tabs";
import { Textarea } from "../../components/ui/textarea";
import { isAlreadyReported } from "../../lib/already-reported";
import { ApiError } from "../../lib/api";
import {
  type ComposerErrors,
  type ComposerValues,
  checkComposer,
  composerActions,
  composerNote,
  FORMATTING_HELP,
  fieldOfRefusal,
  initialComposerValues,
  toggleId,
} from "./composer-logic";
import { PostBody } from "./post-body";
import { useSavePost } from "./posts-api";

const CHECKBOX = "size-4 shrink-0 rounded border-slate-300 accent-brand-600";

function Choices({
  legend,
  hint,
  items,
  chosen,
  onChange,
  errorId,
  error,
}: {
  legend: string;
  hint: string;
  items: Array<{ id: string; label: string }>;
  chosen: string[];
  onChange: (id: string, on: boolean) => void;
  errorId: string;
  error: string | undefined;
}) {
  const id = useId();
  return (
    <fieldset className="space-y-2" {...fieldErrorProps(errorId, error, `${id}-hint`)}>
      <legend className="text-sm font-medium text-ink">{legend}</legend>
      <p id={`${id}-hint`} className="text-xs text-muted">
        {hint}
      </p>
      <div className="grid gap-2 sm:grid-cols-2">
        {items.map((item) => (
          <label
            key={item.id}
            className="flex min-w-0 cursor-pointer items-center gap-2.5 rounded-lg border border-line px-3 py-2 text-sm text-ink has-[:checked]:border-brand-300 has-[:checked]:bg-brand-50"
          >
            <input
              type="checkbox"
              className={CHECKBOX}
              checked={chosen.includes(item.id)}
              onChange={(event) => onChange(item.id, event.target.checked)}
            />
            <span className="min-w-0 wrap-anywhere">{item.label}</span>
          </label>
        ))}
      </div>
      <FieldError id={errorId} message={error} />
    </fieldset>
  );
}

/**
 * Write or edit a post: title, body in the posts' markup (with its short help and a preview rendered by
 * the same function the server uses), the tiers whose members see it and the product files it
 * attaches. The shared schema checks it before sending; the server's refusals land on their fields.
 */
export function PostComposer({
  userId,
  product,
  editing,
  onDone,
}: {
  userId: string;
  product: PostProduct;
  editing: SellerPost | null;
  onDone: () => void;
}) {
  const id = useId();
  const [values, setValues] = useState<ComposerValues>(() => initialComposerValues(product, editing));
  const [errors, setErrors] = useState<ComposerErrors>({});
  const [tab, setTab] = useState("write");
  const { mutate: save, isPending: saving, variables } = useSavePost(userId);
  const errorId = (field: PostField) => `${id}-${field}-error`;

  const change = (field: keyof ComposerValues, value: ComposerValues[keyof ComposerValues]) => {
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };

  const submit = (publish: boolean) => {
    const checked = checkComposer(product.id, values, publish);
    if ("errors" in checked) {
      setErrors(checked.errors);
      if (checked.errors.body && !checked.errors.title) setTab("write");
      return;
    }
    save(
      { id: editing?.id ?? null, input: checked.input },
      {
        onSuccess: (post) => {
          if (post.publishedAt && !editing?.publishedAt) {
            toast.success(POST_MESSAGES.published, { description: POST_MESSAGES.publishedEmailing });
          } else toast.success(post.publishedAt ? POST_MESSAGES.saved : POST_MESSAGES.draftSaved);
          onDone();
        },
        onError: (error) => {
          const field = error instanceof ApiError ? fieldOfRefusal(error.details) : null;
          if (field) setErrors((current) => ({ ...current, [field]: error.message }));
          else if (!isAlreadyReported(error)) toast.error("Post not saved", { description: error.message });
        },
      },
    );
  };

  const preview = values.body.trim() === "" ? "" : renderPostMarkup(values.body);
  const tiers = product.tiers.map((tier) => ({
    id: tier.id,
    label: tier.removed ? `${tier.name} (no longer offered)` : tier.name,
  }));
  const files = product.files.map((file) => ({ id: file.id, label: file.name }));

  return (
    <Card>
      <CardHeader>
        <CardTitle>{editing ? "Edit post" : "New post"}</CardTitle>
        <CardDescription className="wrap-anywhere">For the members of {product.title}.</CardDescription>
      </CardHeader>
      {/* Enter in the title never publishes (an email to every member): only the buttons send. */}
      <form noValidate className="space-y-5 p-6" onSubmit={(event) => event.preventDefault()}>
        <div className="space-y-1.5">
          <Label htmlFor={`${id}-title`}>Title</Label>
          <Input
            id={`${id}-title`}
            value={values.title}
            maxLength={POST_LIMITS.titleMax}
            onChange={(event) => change("title", event.target.value)}
            {...fieldErrorProps(errorId("title"), errors.title)}
          />
          <FieldError id={errorId("title")} message={errors.title} />
        </div>

        <div className="space-y-1.5">
          <Tabs value={tab} onValueChange={setTab}>
            <div className="flex flex-wrap items-end justify-between gap-2">
              <Label htmlFor={`${id}-body`}>Post</Label>
              <TabsList className="w-auto" aria-label="Write or preview the post">
                <TabsTrigger value="write" className="py-1">
                  Write
                </TabsTrigger>
                <TabsTrigger value="preview" className="py-1">
                  Preview
                </TabsTrigger>
              </TabsList>
            </div>
            <TabsContent value="write" className="mt-2 space-y-1.5">
              <Textarea
                id={`${id}-body`}
                rows={12}
                value={values.body}
                maxLength={POST_LIMITS.bodyMax}
                onChange={(event) => change("body", event.target.value)}
                {...fieldErrorProps(errorId("body"), errors.body, `${id}-help`)}
              />
              <div id={`${id}-help`} className="text-xs text-muted">
                <p>A blank line starts a new paragraph. Formatting:</p>
                <ul className="mt-1 flex flex-wrap gap-x-4 gap-y-1">
                  {FORMATTING_HELP.map(([typed, meaning]) => (
                    <li key={typed}>
                      <code className="rounded bg-slate-100 px-1 py-0.5 font-mono text-ink">{typed}</code>{" "}
                      {meaning}
                    </li>
                  ))}
                </ul>
              </div>
            </TabsContent>
            <TabsContent value="preview" className="mt-2">
              <div className="min-h-40 rounded-lg border border-line bg-white p-4">
                {values.title.trim() && (
                  <p className="mb-3 text-base font-semibold wrap-anywhere text-ink">{values.title.trim()}</p>
                )}
                {preview ? (
                  <PostBody html={preview} />
                ) : (
                  <p className="text-sm text-muted">Nothing to preview yet: write the post first.</p>
                )}
              </div>
            </TabsContent>
          </Tabs>
          <FieldError id={errorId("body")} message={errors.body} />
        </div>

        <Choices
          legend="Who sees it"
          hint="Members of the tiers you check read it in their library."
          items={tiers}
          chosen={values.tierIds}
          onChange={(tierId, on) => change("tierIds", toggleId(product.tiers, values.tierIds, tierId, on))}
          errorId={errorId("tierIds")}
          error={errors.tierIds}
        />

        {files.length > 0 && (
          <Choices
            legend="Attach files (optional)"
            hint={`Files of this product. Members download them from the post: 3 downloads of each per billing period, up to ${POST_LIMITS.attachmentsMax} files.`}
            items={files}
            chosen={values.fileIds}
            onChange={(fileId, on) => change("fileIds", toggleId(product.files, values.fileIds, fileId, on))}
            errorId={errorId("fileIds")}
            error={errors.fileIds}
          />
        )}

        <p className="text-sm text-muted">{composerNote(editing)}</p>
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="ghost" onClick={onDone} disabled={saving}>
            Cancel
          </Button>
          {composerActions(editing)
            .slice()
            .reverse()
            .map((action, index, all) => {
              const primary = index === all.length - 1;
              const busy = saving && variables?.input.publish === action.publish;
              return (
                <Button
                  key={action.label}
                  variant={primary ? "primary" : "secondary"}
                  disabled={saving}
                  aria-busy={busy}
                  onClick={() => submit(action.publish)}
                >
                  {busy ? "Saving..." : action.label}
                </Button>
              );
            })}
        </div>
      </form>
    </Card>
  );
}
