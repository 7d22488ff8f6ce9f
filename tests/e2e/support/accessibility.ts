import { AxeBuilder } from "@axe-core/playwright";
import type { ImpactValue, Result } from "axe-core";
import type { Page } from "playwright-core";

/**
 * WCAG 2.0, 2.1 and 2.2 at levels A and AA (axe has no 2.2 level-A rules, so no such tag), plus axe's
 * best practices (heading order, landmarks...).
 */
export const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"];

/** Impacts that fail a page; the others are logged, to be fixed too, without failing the run. */
const BLOCKING: ReadonlySet<ImpactValue> = new Set(["serious", "critical"]);

export type AccessibilityFinding = {
  page: string;
  rule: string;
  impact: ImpactValue;
  /** One CSS selector per offending element (axe's own, shortest unique). */
  targets: string[];
  /** axe's explanation for the first element, e.g. the measured contrast ratio. */
  summary: string;
  help: string;
  helpUrl: string;
};

export type AccessibilityOptions = {
  /** Rules that cannot apply to what is checked (say why at the call), e.g. landmarks in an email body. */
  inapplicableRules?: string[];
};

/**
 * Waits until the page stands still: web fonts loaded and every finite animation or transition (a toast
 * sliding in, a dialog fading in) finished, so contrast is measured on final colours. Spinners, which run
 * forever, are not waited for.
 */
async function settle(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await document.fonts.ready;
    const finite = document
      .getAnimations()
      .filter((animation) => animation.playState === "running")
      .filter((animation) => Number.isFinite(animation.effect?.getComputedTiming().endTime ?? Infinity));
    const done = Promise.all(finite.map((animation) => animation.finished.catch(() => undefined)));
    await Promise.race([done, new Promise((resolve) => setTimeout(resolve, 3_000))]);
  });
}

function findingsOf(name: string, violations: Result[]): AccessibilityFinding[] {
  return violations.map((violation) => ({
    page: name,
    rule: violation.id,
    impact: violation.impact ?? "minor",
    targets: violation.nodes.map((node) => node.target.map(String).join(" >>> ")),
    summary: (violation.nodes[0]?.failureSummary ?? "").replace(/\s+/g, " ").trim(),
    help: violation.help,
    helpUrl: violation.helpUrl,
  }));
}

/** One finding per line block: rule, impact, the elements, what axe measured. */
export function describeFindings(findings: AccessibilityFinding[]): string {
  return findings
    .map((finding) => {
      const targets = finding.targets.slice(0, 5).join(", ");
      const more = finding.targets.length > 5 ? ` (+${finding.targets.length - 5} more)` : "";
      return `- [${finding.impact}] ${finding.rule}: ${finding.help}\n    on ${targets}${more}\n    ${finding.summary}`;
    })
    .join("\n");
}

/** Every axe finding on the page as it is now (after it settles), of any impact. */
export async function accessibilityFindings(
  page: Page,
  name: string,
  options: AccessibilityOptions = {},
): Promise<AccessibilityFinding[]> {
  await settle(page);
  // Legacy mode runs axe inside the page only, which is all our pages need (they embed no frames), and
  // skips opening a blank page per run to combine the frames' results: several times faster.
  let builder = new AxeBuilder({ page })
    .withTags(AXE_TAGS)
    .setLegacyMode(true)
    // Only violations are read: axe then keeps one example of each pass instead of every element.
    // Frames are left out: legacy mode injects axe into none, and axe would wait up to a minute for an
    // answer from each (the embed overlay's product page); a framed page is checked on its own address.
    .options({ resultTypes: ["violations"], iframes: false });
  if (options.inapplicableRules?.length) builder = builder.disableRules(options.inapplicableRules);
  const results = await builder.analyze();
  return findingsOf(name, results.violations);
}

/** Throws a readable list of the serious and critical findings; logs the moderate and minor ones. */
export function failOnSeriousFindings(name: string, findings: AccessibilityFinding[]): void {
  const blocking = findings.filter((finding) => BLOCKING.has(finding.impact));
  const other = findings.filter((finding) => !BLOCKING.has(finding.impact));
  if (other.length > 0) console.warn(`Accessibility (not failing) on ${name}:\n${describeFindings(other)}`);
  if (blocking.length > 0) {
    throw new Error(`Serious or critical accessibility findings on ${name}:\n${describeFindings(blocking)}`);
  }
}

/**
 * Runs axe (WCAG 2.x A/AA and best practices) on the page. Fails on serious or critical findings with a
 * readable list; moderate and minor ones are logged. Answers every finding.
 */
export async function expectAccessible(
  page: Page,
  name: string,
  options: AccessibilityOptions = {},
): Promise<AccessibilityFinding[]> {
  const findings = await accessibilityFindings(page, name, options);
  failOnSeriousFindings(name, findings);
  return findings;
}

export type SidewaysOverflow = {
  viewportWidth: number;
  documentWidth: number;
  /** The elements reaching furthest past the right edge, furthest first, with a bit of their text. */
  offenders: Array<{ element: string; right: number; width: number; text: string }>;
};

/** How far the page reaches past the viewport's right edge, and the elements that make it; null when it fits. */
export async function sidewaysOverflow(page: Page): Promise<SidewaysOverflow | null> {
  return page.evaluate(() => {
    const viewportWidth = document.documentElement.clientWidth;
    // The body counts too: `overflow-x: hidden` on it would hide a too-wide page by cutting it off.
    const documentWidth = Math.max(document.documentElement.scrollWidth, document.body.scrollWidth);
    if (documentWidth <= viewportWidth) return null;

    /**
     * A fixed box never widens the page, and an ancestor that clips or scrolls its content (and fits) keeps
     * a wide child from widening it.
     */
    const contained = (element: Element): boolean => {
      for (let box: Element | null = element; box && box !== document.body; box = box.parentElement) {
        const style = getComputedStyle(box);
        if (style.position === "fixed") return true;
        const clips = box !== element && style.overflowX !== "visible";
        if (clips && box.getBoundingClientRect().right <= viewportWidth + 0.5) return true;
      }
      return false;
    };
    const describe = (element: Element): string => {
      const classes = [...element.classList].slice(0, 4).map((name) => `.${name}`);
      const id = element.id ? `#${element.id}` : "";
      const parent = element.parentElement ? `${element.parentElement.tagName.toLowerCase()} > ` : "";
      return `${parent}${element.tagName.toLowerCase()}${id}${classes.join("")}`;
    };

    // How far right each element reaches: its box, or its own text when a long word runs out of the box.
    const reach = new Map<Element, number>();
    for (const element of document.body.querySelectorAll("*")) {
      const rect = element.getBoundingClientRect();
      if (rect.width > 0) reach.set(element, rect.right);
    }
    const texts = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const range = document.createRange();
    for (let node = texts.nextNode(); node; node = texts.nextNode()) {
      const parent = node.parentElement;
      if (!parent || !node.textContent?.trim()) continue;
      range.selectNodeContents(node);
      const textRight = range.getBoundingClientRect().right;
      // Text cut off by its own box (`truncate`) reaches no further than the box.
      const clipsText = getComputedStyle(parent).overflowX !== "visible";
      const right = clipsText ? Math.min(textRight, parent.getBoundingClientRect().right) : textRight;
      reach.set(parent, Math.max(reach.get(parent) ?? 0, right));
    }
    const overflowing = [...reach]
      .filter(([element, right]) => right + window.scrollX > viewportWidth + 0.5 && !contained(element))
      .map(([element]) => element);
    // The innermost ones: an element whose child also overflows only passes the width on.
    const culprits = overflowing.filter(
      (element) => !overflowing.some((other) => other !== element && element.contains(other)),
    );
    const offenders = culprits
      .map((element) => ({
        element: describe(element),
        right: Math.round((reach.get(element) ?? 0) + window.scrollX),
        width: Math.round(element.getBoundingClientRect().width),
        text: (element.textContent ?? "").replace(/\s+/g, " ").trim().slice(0, 60),
      }))
      .sort((a, b) => b.right - a.right)
      .slice(0, 5);
    return { viewportWidth, documentWidth, offenders };
  });
}

export function describeOverflow(name: string, overflow: SidewaysOverflow): string {
  const offenders = overflow.offenders
    .map(
      (offender) =>
        `- ${offender.element} (${offender.width}px wide) reaches ${offender.right}px: "${offender.text}"`,
    )
    .join("\n");
  return `${name} is ${overflow.documentWidth}px wide in a ${overflow.viewportWidth}px viewport. Widest elements:\n${offenders}`;
}

/** Fails when the document is wider than the viewport, naming the widest offending elements. */
export async function expectNoSidewaysOverflow(page: Page, name = page.url()): Promise<void> {
  const overflow = await sidewaysOverflow(page);
  if (overflow) throw new Error(describeOverflow(name, overflow));
}
