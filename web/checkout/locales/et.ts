import type { Messages } from '.';

// Formal plural "te" (lowercase "teie"), as Estonian banks and e-shops address customers; buttons in the usual short UI form
// ("Proovi uuesti", "Tühista"). Charge: "raha võtmine" / "summa kaardilt maha võtma"; hold: "broneeritud summa".
export const et: Messages = {
  loading: 'Makse laadimine…',
  processing: 'Teie makset töödeldakse…',
  confirming: 'Kinnitame teie makset. Palun ärge sulgege seda lehte – teilt ei võeta raha kaks korda.',
  paid: 'Makse on tehtud. Aitäh!',
  unavailable: 'Google Pay ei ole selles seadmes ega brauseris saadaval. Palun valige muu makseviis.',
  declined: 'Teie kaart lükati tagasi. Proovige mõne teise kaardiga.',
  retry: 'Proovi uuesti',
  authorized: 'Makse on kinnitatud. Pood võtab summa teie kaardilt tellimuse väljasaatmisel.',
  captured: 'Makse on tehtud. Pood on summa teie kaardilt maha võtnud.',
  released: 'Pood tühistas selle makse ja vabastas teie kaardil broneeritud summa – teilt ei võeta midagi.',
  authenticating: 'Jätkamiseks kinnitage makse oma pangas.',
  reviewOrder: 'Teie tellimuse hinda ei õnnestunud kinnitada ja teilt ei võetud midagi. Palun vaadake tellimus üle ja proovige uuesti.',
  challenge: { title: 'Kinnitage makse', frame: 'Panga kinnitus (3-D Secure)', cancel: 'Tühista' },
  errors: {
    invalid_client_secret: 'See makse ei ole õigesti seadistatud. Palun võtke ühendust poega.',
    session_unauthorized: 'Seda makset ei õnnestunud kontrollida. Laadige leht uuesti või minge tagasi poodi ja alustage otsast peale.',
    origin_not_allowed: 'See makse ei ole selle veebisaidi jaoks seadistatud. Palun võtke ühendust poega.',
    session_not_found: 'Seda makset ei leitud. Võib-olla on see aegunud – minge tagasi poodi ja alustage otsast peale.',
    session_expired: 'See makse on aegunud ja teilt ei võetud midagi. Palun minge tagasi poodi ja alustage otsast peale.',
    network_error: 'Makseserveriga ei õnnestunud ühendust saada. Kontrollige internetiühendust ja proovige uuesti.',
    server_error: 'Meie poolel tekkis viga. Palun proovige uuesti.',
    store_unavailable: 'Maksmine ei ole hetkel võimalik. Proovige mõne sekundi pärast uuesti – teilt ei võeta raha kaks korda.',
    wallet_unavailable: 'Google Pay laadimine ebaõnnestus. Palun proovige uuesti.',
    wallet_error: 'Google Pay ei saanud makset lõpule viia. Palun proovige uuesti.',
    payment_failed: 'Makset ei õnnestunud lõpule viia ja teilt ei võetud midagi. Palun proovige uuesti.',
    payment_not_completed: 'Makse jäi lõpetamata ja teilt ei võetud midagi. Võite uuesti proovida.',
    challenge_blocked: 'Panga kinnitust ei õnnestunud sellel lehel kuvada ja teilt ei võetud midagi. Proovige mõnda teist kaarti või muud makseviisi.',
  },
  saving: {
    agreements: {
      'saved_card.recurring.v1': 'Lubate {merchant}-l võtta sellelt kaardilt {amount} {period} teenuse {what} eest, teilt iga kord küsimata, kuni tühistate selle {merchant} juures.',
      'saved_card.unscheduled.v1': 'Lubate {merchant}-l see kaart salvestada ja sellelt teilt iga kord küsimata võtta summa, mille võlgnete teenuse {what} eest, sealhulgas pärast ostu tekkivad tasud, kuni palute {merchant}-l selle eemaldada.',
      'saved_card.reload.v1': 'Lubate {merchant}-l võtta sellelt kaardilt {amount} iga kord, kui {what} saldo langeb alla {threshold}, teilt iga kord küsimata, kuni tühistate selle {merchant} juures.',
    },
    subjects: { recurring: 'teie tellimus', unscheduled: 'teie ostud', reload: 'teie konto' },
    periods: { day: 'iga päev', week: 'iga nädal', month: 'iga kuu', year: 'iga aasta', many: 'iga {count} järel' },
    nothingToday: 'Täna ei võeta midagi.',
  },
  declines: {
    card_declined: 'Kaart lükati tagasi. Proovige mõne teise kaardiga.',
    insufficient_funds: 'Kaardil ei ole piisavalt raha. Proovige mõne teise kaardiga.',
    expired_card: 'Kaart on aegunud. Proovige mõne teise kaardiga.',
    processing_error: 'Kaardi töötlemisel tekkis viga. Proovige hetke pärast uuesti.',
    authentication_required: 'See kaart nõuab autentimist, mida see makse ei toeta. Proovige mõne teise kaardiga.',
    invalid_number: 'Kaardi number on vigane. Proovige mõne teise kaardiga.',
    authentication_failed: 'Teie pank ei kinnitanud makset. Proovige uuesti või kasutage teist kaarti.',
    authentication_abandoned: 'Panga kinnitus jäi lõpetamata. Võite uuesti proovida.',
  },
};
