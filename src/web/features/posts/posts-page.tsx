import { Newspaper, PackagePlus, Pencil, Plus, Trash2 } from "lucide-react";
import { useId, useState } from "react";
import { Link, useSearchParams } from "react-router";
import { formatDay } from "../../../contracts/download-terms";
import { POST_MESSAGES, type PostProduct, type SellerPost } from "../../../contracts/posts";
import { BackLink } from "../../components/back-link";
import { DeleteConfirmDialog } from "../../components/delete-confirm-dialog";
import { Badge } from "../../components/ui/badge";
import { Button } from "../../components/ui/button";
import { Card, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";
import { fieldClasses } from "../../components/ui/input";
import { Label } from "../../components/ui/label";
import { NoticeCard } from "../../components/ui/notice-card";
import { RetryNotice } from "../../components/ui/retry-notice";
import { PageSpinner, Spinner } from "../../components/ui/spinner";
import { cn } from "../../lib/utils";
import { SellerGate } from "../seller/seller-gate";
import { postStateLabel, postSummary } from "./composer-logic";
import { PostComposer } from "./post-composer";
import { useDeletePost, usePostProducts, usePosts } from "./posts-api";

/** The composer is closed, open for a new post, or open on the post being edited. */
type ComposerState = { open: false } | { open: true; editing: SellerPost | null };

function PostRow({
  post,
  product,
  onEdit,
  onDelete,
}: {
  post: SellerPost;
  product: PostProduct;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const state = postStateLabel(post);
  return (
    <li className="flex flex-col gap-3 px-6 py-4 sm:flex-row sm:items-center">
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-center gap-2">
          <p className="min-w-0 font-medium wrap-anywhere text-ink">{post.title}</p>
          <Badge tone={state.tone}>{state.label}</Badge>
        </div>
        <p className="mt-0.5 text-sm wrap-anywhere text-muted">
          {post.publishedAt ? formatDay(post.publishedAt) : `Saved ${formatDay(post.updatedAt)}`}
          <span aria-hidden="true"> · </span>
          {postSummary(post, product)}
        </p>
      </div>
      <div className="flex shrink-0 gap-2">
        <Button variant="secondary" size="sm" onClick={onEdit} aria-label={`Edit ${post.title}`}>
          <Pencil aria-hidden="true" />
          Edit
        </Button>
        <Button variant="secondary" size="sm" onClick={onDelete} aria-label={`Delete ${post.title}`}>
          <Trash2 aria-hidden="true" />
          Delete
        </Button>
      </div>
    </li>
  );
}

function ProductPosts({ userId, product }: { userId: string; product: PostProduct }) {
  const posts = usePosts(userId, product.id);
  const [composer, setComposer] = useState<ComposerState>({ open: false });
  const [deleting, setDeleting] = useState<SellerPost | null>(null);
  return (
    <div className="space-y-6">
      {composer.open ? (
        <PostComposer
          // A fresh composer for each post opened.
          key={composer.editing?.id ?? "new"}
          userId={userId}
          product={product}
          editing={composer.editing}
          onDone={() => setComposer({ open: false })}
        />
      ) : (
        <Button onClick={() => setComposer({ open: true, editing: null })}>
          <Plus aria-hidden="true" />
          New post
        </Button>
      )}

      <Card>
        <CardHeader className="pb-4">
          <CardTitle className="wrap-anywhere">Posts of {product.title}</CardTitle>
          <CardDescription>
            Newest first. Members see published posts of their tier in their library while their membership is
            active.
          </CardDescription>
        </CardHeader>
        {posts.isPending ? (
          <div className="flex justify-center py-10">
            <Spinner label="Loading posts" />
          </div>
        ) : posts.isError ? (
          <RetryNotice className="m-6" message="Error loading posts" onRetry={() => void posts.refetch()} />
        ) : posts.data.posts.length === 0 ? (
          <div className="flex flex-col items-center gap-2 border-t border-line px-6 py-12 text-center">
            <Newspaper aria-hidden="true" className="size-8 text-muted" />
            <p className="font-medium text-ink">No posts yet</p>
            <p className="text-sm text-muted">Write your first post to your members.</p>
          </div>
        ) : (
          <ul className="divide-y divide-line border-t border-line">
            {posts.data.posts.map((post) => (
              <PostRow
                key={post.id}
                post={post}
                product={product}
                onEdit={() => {
                  setComposer({ open: true, editing: post });
                  window.scrollTo({ top: 0, behavior: "smooth" });
                }}
                onDelete={() => setDeleting(post)}
              />
            ))}
          </ul>
        )}
      </Card>
      <DeleteConfirmDialog
        target={deleting}
        mutation={useDeletePost(userId)}
        title={`Delete ${deleting?.title ?? "this post"}?`}
        description={POST_MESSAGES.deleteConfirm}
        deletedTitle={POST_MESSAGES.deleted}
        deletedDescription={(post) => post.title}
        onClose={() => setDeleting(null)}
      />
    </div>
  );
}

function Posts({ userId }: { userId: string }) {
  const id = useId();
  const products = usePostProducts(userId);
  const [params, setParams] = useSearchParams();
  if (products.isPending) return <PageSpinner label="Loading your memberships" />;
  if (products.isError) {
    return <RetryNotice message="Error loading your memberships" onRetry={() => void products.refetch()} />;
  }
  const list = products.data.products;
  const chosen = list.find((product) => product.id === params.get("product")) ?? list[0];
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <BackLink to="/dashboard">Back to Dashboard</BackLink>
      <div>
        <h1 className="text-3xl font-bold tracking-tight text-ink">{POST_MESSAGES.sectionTitle}</h1>
        <p className="mt-1 text-sm text-muted">
          Write to your members. A post shows in the library of the tiers you choose, and members who get post
          emails receive it once, when you publish it.
        </p>
      </div>
      {!chosen ? (
        <NoticeCard icon={Newspaper} tone="neutral" title="No memberships yet" className="max-w-none">
          <p className="mt-2 max-w-sm text-sm text-muted">{POST_MESSAGES.noMembershipProducts}</p>
          <Button asChild className="mt-6">
            <Link to="/new">
              <PackagePlus aria-hidden="true" />
              New Product
            </Link>
          </Button>
        </NoticeCard>
      ) : (
        <>
          {list.length > 1 && (
            <div className="space-y-1.5">
              <Label htmlFor={`${id}-product`}>Membership</Label>
              <select
                id={`${id}-product`}
                value={chosen.id}
                onChange={(event) => setParams({ product: event.target.value }, { replace: true })}
                className={cn(fieldClasses, "h-10 sm:max-w-sm")}
              >
                {list.map((product) => (
                  <option key={product.id} value={product.id}>
                    {product.title}
                  </option>
                ))}
              </select>
            </div>
          )}
          <ProductPosts key={chosen.id} userId={userId} product={chosen} />
        </>
      )}
    </div>
  );
}

/** /dashboard/posts: the seller's posts to their members, per membership product. */
export function PostsPage() {
  return <SellerGate>{({ user }) => <Posts userId={user.id} />}</SellerGate>;
}
