import type { Messages } from '.';

// Formal "vy" (vykanie, lowercase "vaša" as in Slovak shop and bank UIs). Charge: "strhnúť" / "zaúčtovať";
// the hold is "blokácia sumy"; "prosím" set off by commas, as Slovak punctuation wants.
export const sk: Messages = {
  loading: 'Načítava sa platba…',
  processing: 'Spracúvame vašu platbu…',
  confirming: 'Potvrdzujeme vašu platbu. Nechajte, prosím, túto stránku otvorenú – sumu vám dvakrát nestrhneme.',
  paid: 'Platba prebehla. Ďakujeme!',
  unavailable: 'Google Pay nie je na tomto zariadení alebo v tomto prehliadači k dispozícii. Zvoľte, prosím, iný spôsob platby.',
  declined: 'Platba kartou bola zamietnutá. Skúste to, prosím, s inou kartou.',
  retry: 'Skúsiť znova',
  authorized: 'Platba je schválená. Obchod sumu z vašej karty strhne pri odoslaní objednávky.',
  captured: 'Platba prebehla. Obchod sumu z vašej karty strhol.',
  released: 'Obchod túto platbu zrušil a uvoľnil blokáciu sumy na vašej karte – nič vám nebude zaúčtované.',
  authenticating: 'Ak chcete pokračovať, potvrďte platbu vo svojej banke.',
  reviewOrder: 'Cenu vašej objednávky sa nepodarilo potvrdiť a nič vám nebolo zaúčtované. Skontrolujte, prosím, objednávku a skúste to znova.',
  challenge: { title: 'Potvrďte platbu', frame: 'Overenie vo vašej banke (3-D Secure)', cancel: 'Zrušiť' },
  errors: {
    invalid_client_secret: 'Táto platba nie je správne nastavená. Obráťte sa, prosím, na obchod.',
    session_unauthorized: 'Túto platbu sa nepodarilo overiť. Načítajte stránku znova alebo sa vráťte do obchodu a začnite odznova.',
    origin_not_allowed: 'Táto platba nie je nastavená pre túto webovú stránku. Obráťte sa, prosím, na obchod.',
    session_not_found: 'Túto platbu sa nepodarilo nájsť. Možno jej vypršala platnosť – vráťte sa, prosím, do obchodu a začnite odznova.',
    session_expired: 'Platnosť tejto platby vypršala a nič vám nebolo zaúčtované. Vráťte sa, prosím, do obchodu a začnite odznova.',
    network_error: 'Nepodarilo sa spojiť s platobným serverom. Skontrolujte pripojenie a skúste to znova.',
    server_error: 'Na našej strane sa niečo pokazilo. Skúste to, prosím, znova.',
    store_unavailable: 'Platba je na chvíľu nedostupná. Skúste to, prosím, o pár sekúnd znova – sumu vám dvakrát nestrhneme.',
    wallet_unavailable: 'Službu Google Pay sa nepodarilo načítať. Skúste to, prosím, znova.',
    wallet_error: 'Službe Google Pay sa nepodarilo dokončiť platbu. Skúste to, prosím, znova.',
    payment_failed: 'Platbu sa nepodarilo dokončiť a nič vám nebolo zaúčtované. Skúste to, prosím, znova.',
    payment_not_completed: 'Platba nebola dokončená a nič vám nebolo zaúčtované. Môžete to skúsiť znova.',
    challenge_blocked: 'Overenie vo vašej banke sa na tejto stránke nepodarilo zobraziť a nič vám nebolo zaúčtované. Skúste, prosím, inú kartu alebo iný spôsob platby.',
  },
  saving: {
    agreements: {
      'saved_card.recurring.v1': 'Povoľujete {merchant} strhávať z tejto karty {amount} {period} za {what} bez toho, aby sa vás zakaždým pýtal, kým to u {merchant} nezrušíte.',
      'saved_card.unscheduled.v1': 'Povoľujete {merchant} uložiť si túto kartu a strhávať z nej bez toho, aby sa vás zakaždým pýtal, to, čo dlhujete za {what}, vrátane poplatkov vzniknutých po nákupe, kým {merchant} nepožiadate o jej odstránenie.',
      'saved_card.reload.v1': 'Povoľujete {merchant} strhnúť z tejto karty {amount} vždy, keď zostatok {what} klesne pod {threshold}, bez toho, aby sa vás zakaždým pýtal, kým to u {merchant} nezrušíte.',
    },
    subjects: { recurring: 'vášho predplatného', unscheduled: 'vašich nákupov', reload: 'vášho účtu' },
    periods: { day: 'každý deň', week: 'každý týždeň', month: 'každý mesiac', year: 'každý rok', many: 'každé {count}' },
    nothingToday: 'Dnes sa nič nestrháva.',
  },
  declines: {
    card_declined: 'Platba kartou bola zamietnutá. Skúste to s inou kartou.',
    insufficient_funds: 'Na karte nie je dostatok prostriedkov. Skúste to s inou kartou.',
    expired_card: 'Platnosť karty vypršala. Skúste to s inou kartou.',
    processing_error: 'Pri spracovaní karty nastala chyba. Skúste to, prosím, o chvíľu znova.',
    authentication_required: 'Karta vyžaduje overenie, ktoré táto platba neumožňuje. Skúste to s inou kartou.',
    invalid_number: 'Číslo karty nie je platné. Skúste to s inou kartou.',
    authentication_failed: 'Vaša banka platbu nepotvrdila. Skúste to znova alebo použite inú kartu.',
    authentication_abandoned: 'Overenie vo vašej banke nebolo dokončené. Môžete to skúsiť znova.',
  },
};
