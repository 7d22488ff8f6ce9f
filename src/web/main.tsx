import "./styles.css";
import { QueryClientProvider } from "@tanstack/react-query";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { RouterProvider } from "react-router";
import { Toaster } from "./components/ui/toaster";
import { queryClient } from "./lib/query-client";
import { installGlobalErrorHandlers } from "./lib/report-error";
import { router } from "./router";

installGlobalErrorHandlers();

const container = document.getElementById("root");
if (!container) throw new Error("The page has no #root element");

createRoot(container).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
      {/* Outside the router, so toasts survive the error screen replacing the page. */}
      <Toaster />
    </QueryClientProvider>
  </StrictMode>,
);
