import { cva, type VariantProps } from "class-variance-authority";
import type { LucideIcon } from "lucide-react";
import type { ReactNode } from "react";
import { cn } from "../../lib/utils";
import { Card } from "./card";

const iconVariants = cva("flex size-14 items-center justify-center rounded-full ring-1", {
  variants: {
    tone: {
      success: "bg-emerald-50 text-emerald-600 ring-emerald-100",
      brand: "bg-brand-50 text-brand-700 ring-brand-100",
      warning: "bg-amber-50 text-amber-700 ring-amber-100",
      danger: "bg-red-50 text-red-600 ring-red-100",
      neutral: "bg-slate-100 text-slate-500 ring-slate-200",
    },
  },
  defaultVariants: { tone: "brand" },
});

/** A centred card that states one thing: an icon, a title, what it means and what to do next. */
export function NoticeCard({
  icon: Icon,
  tone,
  title,
  children,
  className,
}: VariantProps<typeof iconVariants> & {
  icon: LucideIcon;
  title: ReactNode;
  children?: ReactNode;
  className?: string;
}) {
  return (
    <Card
      className={cn(
        "mx-auto flex w-full max-w-lg flex-col items-center px-5 py-10 text-center sm:px-8",
        className,
      )}
    >
      <span className={iconVariants({ tone })}>
        <Icon className="size-7" aria-hidden="true" />
      </span>
      <h1 className="mt-5 text-xl font-semibold tracking-tight text-ink sm:text-2xl">{title}</h1>
      {children}
    </Card>
  );
}
