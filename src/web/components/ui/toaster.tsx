import type { CSSProperties } from "react";
import { Toaster as Sonner } from "sonner";

export { toast } from "sonner";

/**
 * Sonner's rich colours with darker text: its own (4.3:1, warning 3.1:1) fail WCAG AA's 4.5:1 for
 * small text; these reach 5.7:1 or more on the same backgrounds. Set on the toaster itself, so they
 * win over sonner's stylesheet.
 */
const READABLE_COLOURS = {
  "--success-text": "hsl(140, 100%, 20%)",
  "--info-text": "hsl(210, 92%, 35%)",
  "--warning-text": "hsl(31, 92%, 28%)",
  "--error-text": "hsl(360, 100%, 38%)",
} as CSSProperties;

/**
 * Bottom right (bottom, full width, on a phone): away from the sticky header, whose buttons
 * (Logout, the menu) a toast at the top would cover.
 */
export function Toaster() {
  return (
    <Sonner
      position="bottom-right"
      richColors
      closeButton
      style={READABLE_COLOURS}
      toastOptions={{
        classNames: { title: "text-sm font-semibold", description: "text-[13px] leading-snug" },
      }}
    />
  );
}
