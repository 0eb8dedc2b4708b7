/**
 * The sandbox button's words in each language Google draws its button in (contracts/google-button.ts),
 * so that a page's `buttonLocale` shows on screen as it does on Google's button and a screenshot of a
 * widget in Japanese shows a Japanese button. `{G}` is where the logo goes ("G Pay"): before the verb
 * in Japanese, Korean, Turkish; the accessible name says "Google Pay" there. Without a `buttonLocale`,
 * or with one Google does not draw, the button is English (the widget passes none for Hebrew).
 */
type Verb = 'book' | 'buy' | 'checkout' | 'donate' | 'order' | 'pay' | 'subscribe';

const WORDS: Record<string, Record<Verb, string>> = {
  ar: { book: 'احجز باستخدام {G}', buy: 'اشترِ باستخدام {G}', checkout: 'أتمم الشراء باستخدام {G}', donate: 'تبرّع باستخدام {G}', order: 'اطلب باستخدام {G}', pay: 'ادفع باستخدام {G}', subscribe: 'اشترك باستخدام {G}' },
  bg: { book: 'Резервирай с {G}', buy: 'Купи с {G}', checkout: 'Завърши поръчката с {G}', donate: 'Дари с {G}', order: 'Поръчай с {G}', pay: 'Плати с {G}', subscribe: 'Абонирай се с {G}' },
  ca: { book: 'Reserva amb {G}', buy: 'Compra amb {G}', checkout: 'Finalitza la compra amb {G}', donate: 'Fes un donatiu amb {G}', order: 'Demana amb {G}', pay: 'Paga amb {G}', subscribe: "Subscriu-t'hi amb {G}" },
  cs: { book: 'Rezervovat přes {G}', buy: 'Koupit přes {G}', checkout: 'Dokončit nákup přes {G}', donate: 'Darovat přes {G}', order: 'Objednat přes {G}', pay: 'Zaplatit přes {G}', subscribe: 'Předplatit přes {G}' },
  da: { book: 'Book med {G}', buy: 'Køb med {G}', checkout: 'Gå til betaling med {G}', donate: 'Donér med {G}', order: 'Bestil med {G}', pay: 'Betal med {G}', subscribe: 'Abonner med {G}' },
  de: { book: 'Mit {G} buchen', buy: 'Mit {G} kaufen', checkout: 'Zur Kasse mit {G}', donate: 'Mit {G} spenden', order: 'Mit {G} bestellen', pay: 'Mit {G} bezahlen', subscribe: 'Mit {G} abonnieren' },
  el: { book: 'Κράτηση με {G}', buy: 'Αγορά με {G}', checkout: 'Ολοκλήρωση αγοράς με {G}', donate: 'Δωρεά με {G}', order: 'Παραγγελία με {G}', pay: 'Πληρωμή με {G}', subscribe: 'Συνδρομή με {G}' },
  en: { book: 'Book with {G}', buy: 'Buy with {G}', checkout: 'Check out with {G}', donate: 'Donate with {G}', order: 'Order with {G}', pay: 'Pay with {G}', subscribe: 'Subscribe with {G}' },
  es: { book: 'Reservar con {G}', buy: 'Comprar con {G}', checkout: 'Finalizar compra con {G}', donate: 'Donar con {G}', order: 'Pedir con {G}', pay: 'Pagar con {G}', subscribe: 'Suscribirse con {G}' },
  et: { book: 'Broneeri teenusega {G}', buy: 'Osta teenusega {G}', checkout: 'Vormista ost teenusega {G}', donate: 'Anneta teenusega {G}', order: 'Telli teenusega {G}', pay: 'Maksa teenusega {G}', subscribe: 'Liitu teenusega {G}' },
  fi: { book: 'Varaa palvelulla {G}', buy: 'Osta palvelulla {G}', checkout: 'Siirry kassalle palvelulla {G}', donate: 'Lahjoita palvelulla {G}', order: 'Tilaa palvelulla {G}', pay: 'Maksa palvelulla {G}', subscribe: 'Aloita tilaus palvelulla {G}' },
  fr: { book: 'Réserver avec {G}', buy: 'Acheter avec {G}', checkout: 'Finaliser avec {G}', donate: 'Faire un don avec {G}', order: 'Commander avec {G}', pay: 'Payer avec {G}', subscribe: "S'abonner avec {G}" },
  hr: { book: 'Rezerviraj putem {G}', buy: 'Kupi putem {G}', checkout: 'Dovrši kupnju putem {G}', donate: 'Doniraj putem {G}', order: 'Naruči putem {G}', pay: 'Plati putem {G}', subscribe: 'Pretplati se putem {G}' },
  id: { book: 'Booking dengan {G}', buy: 'Beli dengan {G}', checkout: 'Selesaikan pembelian dengan {G}', donate: 'Donasi dengan {G}', order: 'Pesan dengan {G}', pay: 'Bayar dengan {G}', subscribe: 'Berlangganan dengan {G}' },
  it: { book: 'Prenota con {G}', buy: 'Acquista con {G}', checkout: "Completa l'acquisto con {G}", donate: 'Dona con {G}', order: 'Ordina con {G}', pay: 'Paga con {G}', subscribe: 'Abbonati con {G}' },
  ja: { book: '{G} で予約', buy: '{G} で購入', checkout: '{G} で購入手続き', donate: '{G} で寄付', order: '{G} で注文', pay: '{G} で支払う', subscribe: '{G} で定期購入' },
  ko: { book: '{G}로 예약', buy: '{G}로 구매', checkout: '{G}로 결제 진행', donate: '{G}로 기부', order: '{G}로 주문', pay: '{G}로 결제', subscribe: '{G}로 구독' },
  ms: { book: 'Tempah dengan {G}', buy: 'Beli dengan {G}', checkout: 'Daftar keluar dengan {G}', donate: 'Derma dengan {G}', order: 'Pesan dengan {G}', pay: 'Bayar dengan {G}', subscribe: 'Langgan dengan {G}' },
  nl: { book: 'Boeken met {G}', buy: 'Kopen met {G}', checkout: 'Afrekenen met {G}', donate: 'Doneren met {G}', order: 'Bestellen met {G}', pay: 'Betalen met {G}', subscribe: 'Abonneren met {G}' },
  no: { book: 'Book med {G}', buy: 'Kjøp med {G}', checkout: 'Gå til kassen med {G}', donate: 'Doner med {G}', order: 'Bestill med {G}', pay: 'Betal med {G}', subscribe: 'Abonner med {G}' },
  pl: { book: 'Zarezerwuj przez {G}', buy: 'Kup przez {G}', checkout: 'Dokończ zakup przez {G}', donate: 'Przekaż darowiznę przez {G}', order: 'Zamów przez {G}', pay: 'Zapłać przez {G}', subscribe: 'Subskrybuj przez {G}' },
  pt: { book: 'Reservar com {G}', buy: 'Comprar com {G}', checkout: 'Finalizar compra com {G}', donate: 'Doar com {G}', order: 'Fazer pedido com {G}', pay: 'Pagar com {G}', subscribe: 'Assinar com {G}' },
  ru: { book: 'Забронировать через {G}', buy: 'Купить через {G}', checkout: 'Оформить заказ через {G}', donate: 'Пожертвовать через {G}', order: 'Заказать через {G}', pay: 'Оплатить через {G}', subscribe: 'Подписаться через {G}' },
  sk: { book: 'Rezervovať cez {G}', buy: 'Kúpiť cez {G}', checkout: 'Dokončiť nákup cez {G}', donate: 'Darovať cez {G}', order: 'Objednať cez {G}', pay: 'Zaplatiť cez {G}', subscribe: 'Predplatiť cez {G}' },
  sl: { book: 'Rezerviraj z {G}', buy: 'Kupi z {G}', checkout: 'Zaključi nakup z {G}', donate: 'Doniraj z {G}', order: 'Naroči z {G}', pay: 'Plačaj z {G}', subscribe: 'Naroči se z {G}' },
  sr: { book: 'Резервиши преко {G}', buy: 'Купи преко {G}', checkout: 'Заврши куповину преко {G}', donate: 'Донирај преко {G}', order: 'Наручи преко {G}', pay: 'Плати преко {G}', subscribe: 'Претплати се преко {G}' },
  sv: { book: 'Boka med {G}', buy: 'Köp med {G}', checkout: 'Gå till kassan med {G}', donate: 'Donera med {G}', order: 'Beställ med {G}', pay: 'Betala med {G}', subscribe: 'Prenumerera med {G}' },
  th: { book: 'จองด้วย {G}', buy: 'ซื้อด้วย {G}', checkout: 'ดำเนินการชำระเงินด้วย {G}', donate: 'บริจาคด้วย {G}', order: 'สั่งซื้อด้วย {G}', pay: 'ชำระเงินด้วย {G}', subscribe: 'สมัครสมาชิกด้วย {G}' },
  tr: { book: '{G} ile rezervasyon yap', buy: '{G} ile satın al', checkout: '{G} ile ödemeye geç', donate: '{G} ile bağış yap', order: '{G} ile sipariş ver', pay: '{G} ile öde', subscribe: '{G} ile abone ol' },
  uk: { book: 'Забронювати через {G}', buy: 'Купити через {G}', checkout: 'Оформити замовлення через {G}', donate: 'Пожертвувати через {G}', order: 'Замовити через {G}', pay: 'Оплатити через {G}', subscribe: 'Підписатися через {G}' },
  zh: { book: '使用 {G} 预订', buy: '使用 {G} 购买', checkout: '使用 {G} 结账', donate: '使用 {G} 捐款', order: '使用 {G} 下单', pay: '使用 {G} 支付', subscribe: '使用 {G} 订阅' },
};

/** Google's legacy button types: `long` is `buy`; `short` and `plain` show the logo alone. */
const VERB_OF: Partial<Record<string, Verb>> = { book: 'book', buy: 'buy', long: 'buy', checkout: 'checkout', donate: 'donate', order: 'order', pay: 'pay', subscribe: 'subscribe' };

export interface ButtonWords {
  /** The language the words are in, for the button's `lang`. */
  lang: string;
  /** What the button shows, the logo as "G Pay". */
  text: string;
  /** Its accessible name, "Google Pay" spelt out. */
  label: string;
}

/** The words of a button of `buttonType` (Google's default: `buy`) in `buttonLocale`, or in English. */
export function buttonWords(buttonType: string | undefined, buttonLocale: string | undefined): ButtonWords {
  const lang = buttonLocale && WORDS[buttonLocale] ? buttonLocale : 'en';
  const verb = VERB_OF[buttonType ?? 'buy'];
  const template = verb ? (WORDS[lang]?.[verb] ?? '{G}') : '{G}';
  return { lang, text: template.replace('{G}', 'G Pay'), label: template.replace('{G}', 'Google Pay') };
}

/** The languages the words are written in, for the test that holds them to Google's list. */
export const BUTTON_WORD_LOCALES = Object.keys(WORDS);
