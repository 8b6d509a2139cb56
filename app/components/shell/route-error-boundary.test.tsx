import { renderToString } from "react-dom/server";
import { createMemoryRouter, data, RouterProvider, useRouteError } from "react-router";
import { describe, expect, it } from "vitest";
import { RouteErrorBoundary } from "./route-error-boundary";

// Decision 0140: the one boundary every route exports, by status.

/** What React Router gives a route module's ErrorBoundary: the error among its props. */
function Boundary() {
  return <RouteErrorBoundary error={useRouteError()} />;
}

/** The page at `/panel` as it renders when its loader threw `error` (the server's first render). */
function renderPanelError(error: unknown, ErrorBoundary: () => React.ReactNode = Boundary): string {
  const router = createMemoryRouter(
    [{ id: "panel", path: "/panel", element: <p>content</p>, ErrorBoundary }],
    { initialEntries: ["/panel"], hydrationData: { loaderData: {}, errors: { panel: error } } },
  );
  return renderToString(<RouterProvider router={router} />);
}

function responseError(status: number, body: string | null) {
  const thrown = data(body, { status });
  return { status, statusText: "", internal: false, data: thrown.data };
}

describe("RouteErrorBoundary", () => {
  it("says 404 with the /404 page's texts and a way home", () => {
    const html = renderPanelError(responseError(404, null));
    expect(html).toContain("Error 404");
    expect(html).toContain("This page doesn&#x27;t exist. Try searching for something else.");
    expect(html).toContain('href="/home"');
    expect(html).not.toContain("content");
  });

  it("says 403 with the refusal's message", () => {
    const html = renderPanelError(responseError(403, "This community is private"));
    expect(html).toContain("Error 403");
    expect(html).toContain("This community is private");
  });

  it("answers an unexpected error with 'Something went wrong' and a retry, never the error's text", () => {
    const html = renderPanelError(new Error("connection refused at 10.0.0.3"));
    expect(html).toContain("Something went wrong");
    expect(html).toContain("Try again</button>");
    expect(html).not.toContain("10.0.0.3");
  });

  it("shows a refusal's message (a tampered cursor's) with the retry", () => {
    const html = renderPanelError(
      responseError(400, "This list could not be loaded. Please refresh the page."),
    );
    expect(html).toContain("This list could not be loaded. Please refresh the page.");
    expect(html).toContain("Try again</button>");
  });

  it("reads the router's error when given none, as a route module re-exporting it is (the build passes no props)", () => {
    const html = renderPanelError(responseError(404, null), () => <RouteErrorBoundary />);
    expect(html).toContain("Error 404");
    expect(html).not.toContain("Something went wrong");
  });
});
