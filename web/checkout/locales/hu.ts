import type { Messages } from '.';

// Formal "Ön" (magázás), mostly implied by the verb, as Hungarian banks and webshops address customers.
// Charge: "terhelés" ("kétszeres terhelés nem történik" is the usual bank reassurance); hold: "zárolás".
export const hu: Messages = {
  loading: 'Fizetés betöltése…',
  processing: 'Fizetés feldolgozása…',
  confirming: 'A fizetés megerősítése folyamatban. Kérjük, ne zárja be ezt az oldalt – kétszeres terhelés nem történik.',
  paid: 'Sikeres fizetés. Köszönjük!',
  unavailable: 'A Google Pay nem érhető el ezen az eszközön vagy böngészőben. Kérjük, válasszon másik fizetési módot.',
  declined: 'A kártyát elutasították. Próbálkozzon egy másik kártyával.',
  retry: 'Újrapróbálkozás',
  authorized: 'A fizetés engedélyezve. Az áruház a rendelés feladásakor terheli meg a kártyáját.',
  captured: 'Sikeres fizetés. Az áruház megterhelte a kártyáját.',
  released: 'Az áruház visszavonta ezt a fizetést, és feloldotta a zárolást a kártyáján – terhelés nem történik.',
  authenticating: 'A folytatáshoz hagyja jóvá a fizetést a bankjánál.',
  reviewOrder: 'A rendelés árát nem sikerült megerősíteni, terhelés nem történt. Kérjük, ellenőrizze a rendelését, és próbálja újra.',
  challenge: { title: 'Fizetés jóváhagyása', frame: 'Banki ellenőrzés (3-D Secure)', cancel: 'Mégse' },
  errors: {
    invalid_client_secret: 'Ez a fizetés nincs megfelelően beállítva. Kérjük, forduljon az áruházhoz.',
    session_unauthorized: 'Ezt a fizetést nem sikerült ellenőrizni. Töltse be újra az oldalt, vagy térjen vissza az áruházba, és kezdje újra.',
    origin_not_allowed: 'Ez a fizetés nincs beállítva ehhez a webhelyhez. Kérjük, forduljon az áruházhoz.',
    session_not_found: 'Ez a fizetés nem található. Lehet, hogy lejárt – térjen vissza az áruházba, és kezdje újra.',
    session_expired: 'Ez a fizetés lejárt, terhelés nem történt. Kérjük, térjen vissza az áruházba, és kezdje újra.',
    network_error: 'Nem sikerült elérni a fizetési szervert. Ellenőrizze az internetkapcsolatot, és próbálja újra.',
    server_error: 'Hiba történt nálunk. Kérjük, próbálja újra.',
    store_unavailable: 'A fizetés átmenetileg nem érhető el. Próbálja újra néhány másodperc múlva – kétszeres terhelés nem történik.',
    wallet_unavailable: 'A Google Pay nem töltődött be. Kérjük, próbálja újra.',
    wallet_error: 'A Google Pay nem tudta befejezni a fizetést. Kérjük, próbálja újra.',
    payment_failed: 'A fizetés nem sikerült, terhelés nem történt. Kérjük, próbálja újra.',
    payment_not_completed: 'A fizetés nem fejeződött be, terhelés nem történt. Újra megpróbálhatja.',
    challenge_blocked: 'A banki ellenőrzést nem sikerült megjeleníteni ezen az oldalon, terhelés nem történt. Próbálkozzon másik kártyával vagy másik fizetési móddal.',
  },
  saving: {
    agreements: {
      'saved_card.recurring.v1': 'Engedélyezi, hogy a(z) {merchant} {period} {amount} összeget terheljen erre a kártyára a következőért: {what}, anélkül, hogy minden alkalommal megkérdezné, amíg le nem mondja a(z) {merchant} felé.',
      'saved_card.unscheduled.v1': 'Engedélyezi, hogy a(z) {merchant} elmentse ezt a kártyát, és anélkül, hogy minden alkalommal megkérdezné, megterhelje azzal, amivel a következőért tartozik: {what}, beleértve a vásárlás után felmerülő díjakat is, amíg meg nem kéri a(z) {merchant} kereskedőt, hogy törölje.',
      'saved_card.reload.v1': 'Engedélyezi, hogy a(z) {merchant} {amount} összeget terheljen erre a kártyára minden alkalommal, amikor a(z) {what} egyenlege {threshold} alá csökken, anélkül, hogy minden alkalommal megkérdezné, amíg le nem mondja a(z) {merchant} felé.',
    },
    subjects: { recurring: 'az előfizetése', unscheduled: 'a vásárlásai', reload: 'a fiókja' },
    periods: { day: 'naponta', week: 'hetente', month: 'havonta', year: 'évente', many: '{count}ként' },
    nothingToday: 'Ma semmit nem terhelünk.',
  },
  declines: {
    card_declined: 'A kártyát elutasították. Próbálkozzon egy másik kártyával.',
    insufficient_funds: 'A kártyán nincs elegendő fedezet. Próbálkozzon egy másik kártyával.',
    expired_card: 'A kártya lejárt. Próbálkozzon egy másik kártyával.',
    processing_error: 'Hiba történt a kártya feldolgozása közben. Próbálja újra egy kis idő múlva.',
    authentication_required: 'A kártya olyan hitelesítést kér, amelyet ez a fizetés nem támogat. Próbálkozzon egy másik kártyával.',
    invalid_number: 'A kártyaszám érvénytelen. Próbálkozzon egy másik kártyával.',
    authentication_failed: 'A bankja nem hagyta jóvá a fizetést. Próbálja újra, vagy használjon másik kártyát.',
    authentication_abandoned: 'A banki ellenőrzés nem fejeződött be. Újra megpróbálhatja.',
  },
};
