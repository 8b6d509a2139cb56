// How the ads pages write money and time (spec 2 §4 'Ad stats', spec 1 §3 money). Pure.
import { formatTimeLeft, formatUsd } from "~/server/ads/schemas.shared";

export { formatTimeLeft, formatUsd };

/** spec 2 §4: 'amount reads "-- of {budget}" for those, otherwise "{spent} of {budget}"'. */
export function amountText(ad: { statsHidden: boolean; spent: number; budget: number }): string {
  return `${ad.statsHidden ? "--" : formatUsd(ad.spent)} of ${formatUsd(ad.budget)}`;
}

/** A count, or '--' while the ad is unpaid, scheduled or in review (spec 2 §4). */
export function statText(hidden: boolean, value: number): string {
  return hidden ? "--" : value.toLocaleString("en-US");
}

/** The status pill's colours, by status. */
export const STATUS_TONE: Record<string, string> = {
  active: "bg-green-50 text-green-800 ring-green-600/30",
  paused: "bg-amber-50 text-amber-900 ring-amber-600/30",
  checkout: "bg-zinc-100 text-zinc-700 ring-zinc-400/30",
  stopped: "bg-zinc-100 text-zinc-700 ring-zinc-400/30",
  completed: "bg-sky-50 text-sky-900 ring-sky-600/30",
};
