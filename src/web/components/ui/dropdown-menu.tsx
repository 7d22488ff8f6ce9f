import { DropdownMenu as DropdownMenuPrimitive } from "radix-ui";
import type { ComponentProps } from "react";
import { cn } from "../../lib/utils";

/**
 * Not modal: a modal menu hides the rest of the page from screen readers with aria-hidden while its
 * buttons stay focusable (axe's aria-hidden-focus). It still closes on Escape and an outside click.
 */
export function DropdownMenu(props: ComponentProps<typeof DropdownMenuPrimitive.Root>) {
  return <DropdownMenuPrimitive.Root modal={false} {...props} />;
}
export const DropdownMenuTrigger = DropdownMenuPrimitive.Trigger;

export function DropdownMenuContent({
  className,
  align = "end",
  sideOffset = 4,
  ...props
}: ComponentProps<typeof DropdownMenuPrimitive.Content>) {
  // Not portalled: the menu stays in the page's landmarks (main) and next to its button in tab order;
  // Radix positions it as fixed, so the card around it does not clip it.
  return (
    <DropdownMenuPrimitive.Content
      align={align}
      sideOffset={sideOffset}
      className={cn(
        "z-50 min-w-44 rounded-xl border border-line bg-white p-1 shadow-lift outline-none data-[state=open]:animate-fade-in",
        className,
      )}
      {...props}
    />
  );
}

export function DropdownMenuItem({
  className,
  destructive = false,
  ...props
}: ComponentProps<typeof DropdownMenuPrimitive.Item> & { destructive?: boolean }) {
  return (
    <DropdownMenuPrimitive.Item
      className={cn(
        "flex cursor-default items-center gap-2 rounded-lg px-3 py-2 text-sm text-ink outline-none select-none data-[disabled]:pointer-events-none data-[disabled]:opacity-50 data-[highlighted]:bg-slate-100 [&_svg]:size-4 [&_svg]:shrink-0 [&_svg]:text-muted",
        destructive && "text-red-700 data-[highlighted]:bg-red-50 [&_svg]:text-red-600",
        className,
      )}
      {...props}
    />
  );
}
