import { Toaster as Sonner } from "sonner";

export { toast } from "sonner";

export function Toaster() {
  return (
    <Sonner
      position="top-right"
      richColors
      closeButton
      toastOptions={{
        classNames: { title: "text-sm font-semibold", description: "text-[13px] leading-snug" },
      }}
    />
  );
}
