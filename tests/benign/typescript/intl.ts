// Intl: NumberFormat, DateTimeFormat (fixed time zones), Collator, PluralRules, RelativeTimeFormat, ListFormat, Segmenter.
const n = 1234567.891;
const fmt = (locale: string, opts?: Intl.NumberFormatOptions) => new Intl.NumberFormat(locale, opts).format(n);
const nbsp = (s: string) => s.replace(/[\u00a0\u202f]/g, " ");
const expect: Array<[string, string]> = [
  [fmt("en-US"), "1,234,567.891"],
  [fmt("de-DE"), "1.234.567,891"],
  [nbsp(fmt("fr-FR")), "1 234 567,891"],
  [fmt("en-IN"), "12,34,567.891"],
  [fmt("en-US", { style: "currency", currency: "USD" }), "$1,234,567.89"],
  [nbsp(fmt("de-DE", { style: "currency", currency: "EUR" })), "1.234.567,89 €"],
  [fmt("ja-JP", { style: "currency", currency: "JPY" }), "￥1,234,568"],
  [new Intl.NumberFormat("en-US", { style: "percent", maximumFractionDigits: 1 }).format(0.4567), "45.7%"],
  [new Intl.NumberFormat("en-US", { notation: "compact" }).format(1_250_000), "1.3M"],
  [new Intl.NumberFormat("en-US", { style: "unit", unit: "kilometer-per-hour" }).format(88), "88 km/h"],
  [new Intl.NumberFormat("en-US", { minimumIntegerDigits: 3, useGrouping: false }).format(7), "007"],
];
for (const [got, want] of expect) if (got !== want) throw new Error(`got ${JSON.stringify(got)} want ${JSON.stringify(want)}`);

const d = new Date(Date.UTC(2024, 2, 10, 15, 30, 0));
const dt = (locale: string, opts: Intl.DateTimeFormatOptions) => nbsp(new Intl.DateTimeFormat(locale, opts).format(d));
const dates: Array<[string, string]> = [
  [dt("en-US", { timeZone: "UTC", dateStyle: "full" }), "Sunday, March 10, 2024"],
  [dt("en-GB", { timeZone: "UTC", dateStyle: "short" }), "10/03/2024"],
  [dt("de-DE", { timeZone: "Europe/Berlin", dateStyle: "long", timeStyle: "short" }), "10. März 2024 um 16:30"],
  [dt("en-US", { timeZone: "America/New_York", hour: "numeric", minute: "2-digit" }), "11:30 AM"],
  [dt("ja-JP", { timeZone: "Asia/Tokyo", year: "numeric", month: "long", day: "numeric" }), "2024年3月11日"],
];
for (const [got, want] of dates) if (got !== want) throw new Error(`date got ${JSON.stringify(got)} want ${JSON.stringify(want)}`);
const parts = new Intl.DateTimeFormat("en-US", { timeZone: "UTC", month: "short", day: "numeric" }).formatToParts(d);
if (parts.map((p) => p.type).join() !== "month,literal,day") throw new Error("formatToParts");

const words = ["zebra", "Äpfel", "apple", "Zoo", "éclair", "eclair"];
const sorted = [...words].sort(new Intl.Collator("de", { sensitivity: "base" }).compare);
if (sorted.join() !== "Äpfel,apple,éclair,eclair,zebra,Zoo") throw new Error("collator " + sorted);
if (new Intl.Collator("en", { numeric: true }).compare("item10", "item9") <= 0) throw new Error("numeric collation");
const pr = new Intl.PluralRules("en-US");
if ([0, 1, 2].map((x) => pr.select(x)).join() !== "other,one,other") throw new Error("plural");
if (new Intl.PluralRules("en-US", { type: "ordinal" }).select(22) !== "two") throw new Error("ordinal");
const rtf = new Intl.RelativeTimeFormat("en", { numeric: "auto" });
if (rtf.format(-1, "day") !== "yesterday" || rtf.format(3, "week") !== "in 3 weeks") throw new Error("relative");
if (new Intl.ListFormat("en", { type: "conjunction" }).format(["a", "b", "c"]) !== "a, b, and c") throw new Error("list");
const seg = new Intl.Segmenter("en", { granularity: "word" });
const wordCount = [...seg.segment("Hello, wide world!")].filter((s) => s.isWordLike).length;
if (wordCount !== 3) throw new Error("segmenter");
if (new Intl.DisplayNames(["en"], { type: "region" }).of("DE") !== "Germany") throw new Error("display names");
if ((1234.5).toLocaleString("en-US") !== "1,234.5" || "ı".toLocaleUpperCase("tr") !== "I") throw new Error("toLocale");
if (typeof Intl.DateTimeFormat().resolvedOptions().timeZone !== "string") throw new Error("default zone");
console.log(expect[0][0], dates[0][0]);
console.log("OK");
