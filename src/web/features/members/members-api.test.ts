import type { InfiniteData } from "@tanstack/react-query";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Member, MembersPage } from "../../../contracts/memberships";
import { ApiError } from "../../lib/api";
import {
  actionFor,
  exportMembersCsv,
  type MemberFilter,
  memberFilterParams,
  runMemberAction,
  withMember,
} from "./members-api";

const member = (overrides: Partial<Member> = {}): Member => ({
  id: "mem_1",
  email: "ada@example.com",
  productId: "p1",
  productTitle: "Members Only",
  tierName: "Fan",
  interval: "month",
  amountCents: 500,
  currency: "usd",
  status: "active",
  statusLabel: "Active",
  startedAt: "2026-03-03T14:05:00.000Z",
  currentPeriodEnd: "2026-04-03T14:05:00.000Z",
  endedAt: null,
  lifetimeSpendCents: 500,
  hasAccess: true,
  ...overrides,
});

/** A fetch that answers `body` and keeps what it was asked. */
function stubFetch(status: number, body: unknown) {
  const fetch = vi.fn(
    async (_url: string, _init?: RequestInit) => new Response(JSON.stringify(body), { status }),
  );
  vi.stubGlobal("fetch", fetch);
  return fetch;
}

const sent = (fetch: ReturnType<typeof stubFetch>) => {
  const [url, init] = fetch.mock.calls[0] ?? [];
  return { url, method: init?.method, body: JSON.parse(String(init?.body)) };
};

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("the members page's actions", () => {
  it("cancel at period end and cancel now post `when` to the member's cancel route", async () => {
    let fetch = stubFetch(200, member({ status: "canceling", statusLabel: "Canceled at period end" }));
    const answer = await runMemberAction("mem_1", actionFor("cancel-period-end", member()));
    expect(sent(fetch)).toEqual({
      url: "/api/memberships/mem_1/cancel",
      method: "POST",
      body: { when: "period_end" },
    });
    expect(answer.status).toBe("canceling");

    fetch = stubFetch(200, member({ status: "ended", hasAccess: false }));
    await runMemberAction("mem 2/x", actionFor("cancel-now", member()));
    expect(sent(fetch)).toEqual({
      url: "/api/memberships/mem%202%2Fx/cancel",
      method: "POST",
      body: { when: "now" },
    });
  });

  it("refund last payment sends endAccess as ticked, and false when the member has no access to end", async () => {
    let fetch = stubFetch(200, member());
    await runMemberAction("mem_1", actionFor("refund", member()));
    expect(sent(fetch)).toEqual({
      url: "/api/memberships/mem_1/refund-last-payment",
      method: "POST",
      body: { endAccess: false },
    });

    fetch = stubFetch(200, member({ hasAccess: false }));
    await runMemberAction("mem_1", actionFor("refund", member(), true));
    expect(sent(fetch).body).toEqual({ endAccess: true });

    fetch = stubFetch(200, member({ status: "ended", hasAccess: false }));
    await runMemberAction("mem_1", actionFor("refund", member({ status: "ended", hasAccess: false }), true));
    expect(sent(fetch).body).toEqual({ endAccess: false });
  });

  it("turns a refusal into an error carrying the server's message", async () => {
    stubFetch(409, { code: "membership_ended", message: "This membership has already ended." });
    const error = await runMemberAction("mem_1", actionFor("cancel-now", member())).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 409, message: "This membership has already ended." });
  });

  it("put the answer in place of the member on every loaded page", () => {
    const other = member({ id: "mem_2", email: "bob@example.com" });
    const data: InfiniteData<MembersPage> = {
      pages: [
        { members: [other], nextCursor: "c1" },
        { members: [member()], nextCursor: null },
      ],
      pageParams: [null, "c1"],
    };
    const updated = withMember(data, member({ status: "ended", statusLabel: "Ended" }));
    expect(updated.pages[0]).toBe(data.pages[0]);
    expect(updated.pages[1]?.members[0]).toMatchObject({ id: "mem_1", statusLabel: "Ended" });
    expect(updated.pageParams).toEqual([null, "c1"]);
  });
});

describe("the members page's filters and CSV", () => {
  const everything: MemberFilter = { search: "ada@", status: "past_due", productId: "p 1" };

  it("send only the filters that narrow the list", () => {
    expect(memberFilterParams({ search: "", status: "all", productId: null }).toString()).toBe("");
    expect(memberFilterParams(everything).toString()).toBe("q=ada%40&status=past_due&productId=p+1");
  });

  it("export the filtered members in the browser's time zone, under the server's file name", async () => {
    const deps = {
      fetchCsv: vi.fn(
        async (_path: string) =>
          new Response("Email\n", {
            headers: { "content-disposition": 'attachment; filename="members-2026-04-03.csv"' },
          }),
      ),
      save: vi.fn(),
      today: () => new Date(2026, 3, 4, 9, 0),
    };
    await exportMembersCsv(everything, "Europe/Paris", deps);
    expect(deps.fetchCsv).toHaveBeenCalledWith(
      "/api/memberships/export.csv?q=ada%40&status=past_due&productId=p+1&tz=Europe%2FParis",
    );
    expect(deps.save).toHaveBeenCalledWith(expect.any(Blob), "members-2026-04-03.csv");
  });

  it("name the file after today when the server does not, and pass on a refusal's message", async () => {
    const deps = {
      fetchCsv: vi.fn(async (_path: string) => new Response("Email\n")),
      save: vi.fn(),
      today: () => new Date(Date.UTC(2026, 3, 4, 12, 0)),
    };
    await exportMembersCsv({ search: "", status: "all", productId: null }, "UTC", deps);
    expect(deps.fetchCsv).toHaveBeenCalledWith("/api/memberships/export.csv?tz=UTC");
    expect(deps.save).toHaveBeenCalledWith(expect.any(Blob), "members-2026-04-04.csv");

    deps.fetchCsv.mockResolvedValueOnce(
      new Response(JSON.stringify({ code: "bad_request", message: "Unknown time zone" }), { status: 400 }),
    );
    const error = await exportMembersCsv(everything, "Mars/Base", deps).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 400, message: "Unknown time zone" });
  });
});
