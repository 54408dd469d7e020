import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { RouterProvider } from "react-router/dom";
import { setNavigator } from "./lib/api/request";
import { AppProviders } from "./app/app-root";
import { createConsoleRouter } from "./app/router";
import { exchangeFromAddress, refreshSession } from "./app/startup";
import "./styles/global.css";

async function start(): Promise<void> {
  // The guard must see a session exchanged from ?code= / ?loginCode= on the very first render.
  await exchangeFromAddress();
  const router = createConsoleRouter();
  setNavigator((to) => void router.navigate(to, { replace: true }));

  const container = document.getElementById("root");
  if (!container) throw new Error("The page has no #root element.");
  createRoot(container).render(
    <StrictMode>
      <AppProviders>
        <RouterProvider router={router} />
      </AppProviders>
    </StrictMode>,
  );
  void refreshSession();
}

void start();
