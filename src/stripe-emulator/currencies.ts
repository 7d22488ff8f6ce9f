import { minorUnitDigits } from "../contracts/money.js";

/*
 * Currencies, exchange rates and the buyer's local currency: pure tables and integer arithmetic.
 *
 * - Which currencies exist: Stripe's presentment currencies (below), as its "Invalid currency" error
 *   lists them. Amounts are integers of each currency's minor unit (`minorUnitDigits`, contracts/money.ts).
 * - Exchange rates: one fixed, made-up but plausible table of units per 1 USD (`USD_RATES`), so every
 *   conversion is deterministic; cross rates go through USD. Rates are decimal strings and every
 *   conversion is done with BigInt on the exact ratio, rounded half up in the target's minor unit
 *   (prices shown to buyers with Adaptive Pricing's fee are rounded up). 1800 EUR cents → 1957 USD cents
 *   (18.00 / 0.92 = 19.5652…); 1500 JPY → 1000 USD cents; 1900 USD cents → ¥2850, ¥2907 with the fee.
 * - The buyer's country: Stripe infers it from the buyer's IP address; the emulator has no geolocation,
 *   so it reads the region of the most preferred language of the hosted page request's
 *   `Accept-Language` (`ja-JP,ja;q=0.9` → JP → jpy; `de-DE` → eur; `en-GB` → gbp). A first language
 *   without a region (`ja`, `*`, what Node's fetch sends) or a numeric region (`es-419`) names no
 *   country: nothing is converted.
 */

/**
 * Stripe's presentment currencies (lowercase): what "Invalid currency: xyz. Stripe currently supports
 * these currencies: usd, aed, …" lists, USD first, with the three-decimal dinars and rials Stripe's
 * currencies page also takes (bhd, jod, kwd, omr, tnd). Sanctioned or retired codes (irr, kpw, syp, cuc,
 * ves, hrk, sll, …) are not among them.
 */
export const PRESENTMENT_CURRENCIES: readonly string[] = [
  "usd",
  "aed",
  "afn",
  "all",
  "amd",
  "ang",
  "aoa",
  "ars",
  "aud",
  "awg",
  "azn",
  "bam",
  "bbd",
  "bdt",
  "bgn",
  "bhd",
  "bif",
  "bmd",
  "bnd",
  "bob",
  "brl",
  "bsd",
  "bwp",
  "byn",
  "bzd",
  "cad",
  "cdf",
  "chf",
  "clp",
  "cny",
  "cop",
  "crc",
  "cve",
  "czk",
  "djf",
  "dkk",
  "dop",
  "dzd",
  "egp",
  "etb",
  "eur",
  "fjd",
  "fkp",
  "gbp",
  "gel",
  "gip",
  "gmd",
  "gnf",
  "gtq",
  "gyd",
  "hkd",
  "hnl",
  "htg",
  "huf",
  "idr",
  "ils",
  "inr",
  "isk",
  "jmd",
  "jod",
  "jpy",
  "kes",
  "kgs",
  "khr",
  "kmf",
  "krw",
  "kwd",
  "kyd",
  "kzt",
  "lak",
  "lbp",
  "lkr",
  "lrd",
  "lsl",
  "mad",
  "mdl",
  "mga",
  "mkd",
  "mmk",
  "mnt",
  "mop",
  "mur",
  "mvr",
  "mwk",
  "mxn",
  "myr",
  "mzn",
  "nad",
  "ngn",
  "nio",
  "nok",
  "npr",
  "nzd",
  "omr",
  "pab",
  "pen",
  "pgk",
  "php",
  "pkr",
  "pln",
  "pyg",
  "qar",
  "ron",
  "rsd",
  "rub",
  "rwf",
  "sar",
  "sbd",
  "scr",
  "sek",
  "sgd",
  "shp",
  "sle",
  "sos",
  "srd",
  "std",
  "szl",
  "thb",
  "tjs",
  "tnd",
  "top",
  "try",
  "ttd",
  "twd",
  "tzs",
  "uah",
  "ugx",
  "uyu",
  "uzs",
  "vnd",
  "vuv",
  "wst",
  "xaf",
  "xcd",
  "xof",
  "xpf",
  "yer",
  "zar",
  "zmw",
];

const KNOWN = new Set(PRESENTMENT_CURRENCIES);

/** Whether Stripe knows the (lowercase) currency code at all. */
export function isKnownCurrency(currency: string): boolean {
  return KNOWN.has(currency);
}

/**
 * The emulator's exchange rates: units of each currency per 1 USD, as exact decimal strings. Fixed (the
 * emulator has no market), roughly the mid-market rates of 2025, one per presentment currency.
 */
export const USD_RATES: Readonly<Record<string, string>> = {
  usd: "1",
  aed: "3.6725",
  afn: "70",
  all: "92",
  amd: "390",
  ang: "1.79",
  aoa: "915",
  ars: "1000",
  aud: "1.52",
  awg: "1.79",
  azn: "1.7",
  bam: "1.8",
  bbd: "2",
  bdt: "120",
  bgn: "1.8",
  bhd: "0.376",
  bif: "2900",
  bmd: "1",
  bnd: "1.34",
  bob: "6.91",
  brl: "5.6",
  bsd: "1",
  bwp: "13.5",
  byn: "3.27",
  bzd: "2",
  cad: "1.37",
  cdf: "2850",
  chf: "0.88",
  clp: "950",
  cny: "7.2",
  cop: "4100",
  crc: "510",
  cve: "101",
  czk: "23",
  djf: "178",
  dkk: "6.86",
  dop: "60",
  dzd: "134",
  egp: "49",
  etb: "120",
  eur: "0.92",
  fjd: "2.25",
  fkp: "0.79",
  gbp: "0.79",
  gel: "2.7",
  gip: "0.79",
  gmd: "70",
  gnf: "8600",
  gtq: "7.75",
  gyd: "209",
  hkd: "7.8",
  hnl: "25",
  htg: "131",
  huf: "360",
  idr: "16000",
  ils: "3.7",
  inr: "84",
  isk: "138",
  jmd: "157",
  jod: "0.709",
  jpy: "150",
  kes: "129",
  kgs: "87",
  khr: "4050",
  kmf: "452",
  krw: "1350",
  kwd: "0.307",
  kyd: "0.83",
  kzt: "480",
  lak: "21500",
  lbp: "89500",
  lkr: "300",
  lrd: "195",
  lsl: "18",
  mad: "10",
  mdl: "17.8",
  mga: "4500",
  mkd: "56.6",
  mmk: "2100",
  mnt: "3400",
  mop: "8.03",
  mur: "46",
  mvr: "15.4",
  mwk: "1730",
  mxn: "18",
  myr: "4.7",
  mzn: "63.9",
  nad: "18",
  ngn: "1550",
  nio: "36.8",
  nok: "10.9",
  npr: "134",
  nzd: "1.66",
  omr: "0.385",
  pab: "1",
  pen: "3.75",
  pgk: "3.9",
  php: "57",
  pkr: "280",
  pln: "3.95",
  pyg: "7700",
  qar: "3.64",
  ron: "4.58",
  rsd: "108",
  rub: "92",
  rwf: "1350",
  sar: "3.75",
  sbd: "8.4",
  scr: "13.6",
  sek: "10.6",
  sgd: "1.34",
  shp: "0.79",
  sle: "22.5",
  sos: "571",
  srd: "35",
  std: "22800",
  szl: "18",
  thb: "35",
  tjs: "10.9",
  tnd: "3.1",
  top: "2.35",
  try: "34",
  ttd: "6.78",
  twd: "32",
  tzs: "2700",
  uah: "41",
  ugx: "3700",
  uyu: "40",
  uzs: "12700",
  vnd: "25000",
  vuv: "119",
  wst: "2.75",
  xaf: "603",
  xcd: "2.7",
  xof: "603",
  xpf: "110",
  yer: "250",
  zar: "18",
  zmw: "26.5",
};

/**
 * Adaptive Pricing's conversion fee, paid by the buyer inside the rate they are shown. Stripe states "a
 * conversion fee of between 2-4%" (typically 4% under $500, 3% up to $1.5k, 2% above); the emulator
 * always takes 2%.
 */
export const CONVERSION_FEE_PERCENT = 2;

/**
 * Each country's own currency, for the buyer's country (`Accept-Language` region) and as the default
 * currency of the countries with a country spec (objects/country-spec.ts), one table for both.
 */
export const COUNTRY_CURRENCIES: Readonly<Record<string, string>> = {
  US: "usd",
  GB: "gbp",
  CA: "cad",
  AU: "aud",
  NZ: "nzd",
  JP: "jpy",
  BR: "brl",
  IN: "inr",
  MX: "mxn",
  // The euro area.
  AT: "eur",
  BE: "eur",
  CY: "eur",
  DE: "eur",
  EE: "eur",
  ES: "eur",
  FI: "eur",
  FR: "eur",
  GR: "eur",
  HR: "eur",
  IE: "eur",
  IT: "eur",
  LT: "eur",
  LU: "eur",
  LV: "eur",
  MT: "eur",
  NL: "eur",
  PT: "eur",
  SI: "eur",
  SK: "eur",
  // The rest of Europe.
  CH: "chf",
  LI: "chf",
  CZ: "czk",
  DK: "dkk",
  GI: "gip",
  HU: "huf",
  IS: "isk",
  NO: "nok",
  PL: "pln",
  RO: "ron",
  RS: "rsd",
  SE: "sek",
  TR: "try",
  UA: "uah",
  // Elsewhere.
  AE: "aed",
  BH: "bhd",
  JO: "jod",
  KW: "kwd",
  OM: "omr",
  TN: "tnd",
  AR: "ars",
  CL: "clp",
  CN: "cny",
  CO: "cop",
  EG: "egp",
  HK: "hkd",
  ID: "idr",
  IL: "ils",
  KE: "kes",
  KR: "krw",
  MA: "mad",
  MY: "myr",
  NG: "ngn",
  PE: "pen",
  PH: "php",
  PK: "pkr",
  SA: "sar",
  SG: "sgd",
  TH: "thb",
  TW: "twd",
  UY: "uyu",
  VN: "vnd",
  ZA: "zar",
};

/** "0.92" → 92 / 10^2, exactly. */
function parseRate(currency: string): { numerator: bigint; scale: bigint } {
  const rate = USD_RATES[currency];
  if (!rate) throw new RangeError(`no exchange rate for ${currency}`);
  const [whole = "0", fraction = ""] = rate.split(".");
  return { numerator: BigInt(whole + fraction), scale: 10n ** BigInt(fraction.length) };
}

const pow10 = (digits: number) => 10n ** BigInt(digits);

export function hasRate(currency: string): boolean {
  return USD_RATES[currency] !== undefined;
}

/**
 * `from` → `to` as a fraction of minor units: an amount of `from` minor units times `numerator /
 * denominator` is the amount in `to` minor units, before rounding.
 */
function minorRatio(from: string, to: string): { numerator: bigint; denominator: bigint } {
  const source = parseRate(from);
  const target = parseRate(to);
  // to_minor = from_minor / 10^dFrom × (rateTo / rateFrom) × 10^dTo
  return {
    numerator: pow10(minorUnitDigits(to)) * target.numerator * source.scale,
    denominator: pow10(minorUnitDigits(from)) * source.numerator * target.scale,
  };
}

function divideHalfUp(numerator: bigint, denominator: bigint): bigint {
  return (2n * numerator + denominator) / (2n * denominator);
}

function divideUp(numerator: bigint, denominator: bigint): bigint {
  return (numerator + denominator - 1n) / denominator;
}

function signed(amount: number, convert: (magnitude: bigint) => bigint): number {
  if (!Number.isSafeInteger(amount)) throw new RangeError(`not an integer amount: ${amount}`);
  const magnitude = Number(convert(BigInt(Math.abs(amount))));
  return amount < 0 ? -magnitude : magnitude;
}

/** `amount` minor units of `from` in minor units of `to` at the table's rate, rounded half up. */
export function convertAmount(amount: number, from: string, to: string): number {
  if (from === to) return amount;
  const { numerator, denominator } = minorRatio(from, to);
  return signed(amount, (magnitude) => divideHalfUp(magnitude * numerator, denominator));
}

/**
 * What a buyer pays in `to` for `amount` of `from` with Adaptive Pricing: the table's rate plus the
 * conversion fee, rounded up to `to`'s minor unit (1900 USD cents → ¥2907 at 150 × 1.02).
 */
export function presentmentAmount(amount: number, from: string, to: string): number {
  const { numerator, denominator } = minorRatio(from, to);
  return signed(amount, (magnitude) =>
    divideUp(magnitude * numerator * BigInt(100 + CONVERSION_FEE_PERCENT), denominator * 100n),
  );
}

/** A positive ratio as a number of `digits` significant digits, rounded half up (Stripe's `exchange_rate`). */
function significant(numerator: bigint, denominator: bigint, digits = 6): number {
  if (numerator <= 0n || denominator <= 0n) return 0;
  const lower = pow10(digits - 1);
  const upper = pow10(digits);
  let top = numerator;
  let bottom = denominator;
  let exponent = 0;
  while (top / bottom >= upper) {
    bottom *= 10n;
    exponent += 1;
  }
  while (top / bottom < lower) {
    top *= 10n;
    exponent -= 1;
  }
  return Number(`${divideHalfUp(top, bottom)}e${exponent}`);
}

/**
 * The table's rate from `from` to `to` in whole units (1 EUR = 1.08696 USD), as a balance transaction's
 * `exchange_rate` gives it: an amount in `from` times the rate is the amount in `to`. Six significant
 * digits; amounts themselves are converted with the exact ratio.
 */
export function tableRate(from: string, to: string): number {
  const source = parseRate(from);
  const target = parseRate(to);
  return significant(target.numerator * source.scale, source.numerator * target.scale);
}

/** The rate two amounts imply, in whole units: `toAmount` of `to` for `fromAmount` of `from`. */
export function impliedRate(fromAmount: number, from: string, toAmount: number, to: string): number {
  return significant(
    BigInt(Math.abs(toAmount)) * pow10(minorUnitDigits(from)),
    BigInt(Math.abs(fromAmount)) * pow10(minorUnitDigits(to)),
  );
}

/** The rate a buyer is shown with Adaptive Pricing: the table's plus the conversion fee (1 USD = 153 JPY). */
export function presentmentRate(from: string, to: string): number {
  const source = parseRate(from);
  const target = parseRate(to);
  return significant(
    target.numerator * source.scale * BigInt(100 + CONVERSION_FEE_PERCENT),
    source.numerator * target.scale * 100n,
  );
}

/** The most preferred language tag of an `Accept-Language` header, if it is a valid one. */
export function preferredLanguage(acceptLanguage: string | undefined): string | undefined {
  if (!acceptLanguage) return undefined;
  const tags = acceptLanguage
    .split(",")
    .map((part, index) => {
      const [tag = "", ...params] = part.trim().split(";");
      const q = params.map((param) => /^\s*q=([0-9.]+)\s*$/.exec(param)?.[1]).find(Boolean);
      return { tag: tag.trim(), q: q === undefined ? 1 : Number(q), index };
    })
    .filter((entry) => entry.tag && entry.tag !== "*" && entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  const tag = tags[0]?.tag;
  if (!tag) return undefined;
  try {
    return Intl.getCanonicalLocales(tag)[0];
  } catch {
    return undefined;
  }
}

/** The buyer's country: the region of their most preferred language (`ja-JP` → JP), if it has one. */
export function buyerCountry(acceptLanguage: string | undefined): string | undefined {
  const tag = preferredLanguage(acceptLanguage);
  if (!tag) return undefined;
  const region = new Intl.Locale(tag).region;
  return region && /^[A-Z]{2}$/.test(region) ? region : undefined;
}

/** The buyer's local currency, from their country (`de-DE` → eur), if the emulator knows it. */
export function buyerCurrency(acceptLanguage: string | undefined): string | undefined {
  const country = buyerCountry(acceptLanguage);
  return country ? COUNTRY_CURRENCIES[country] : undefined;
}

/** `amount × numerator / denominator`, rounded half up, in integers (part of a converted charge). */
export function proportion(amount: number, numerator: number, denominator: number): number {
  if (denominator === 0) return 0;
  return signed(amount, (magnitude) =>
    divideHalfUp(magnitude * BigInt(numerator), BigInt(Math.abs(denominator))),
  );
}
