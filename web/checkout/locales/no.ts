import type { Messages } from '.';

// "Du", as every Norwegian shop and bank writes (Bokmål). "Trekke" (beløpet) for charge, "reservert beløp" for
// the hold, "dekning" for funds; a spaced en dash, not a colon, before the reassurance.
export const no: Messages = {
  loading: 'Laster inn betalingen…',
  processing: 'Behandler betalingen din…',
  confirming: 'Vi bekrefter betalingen din. La siden være åpen – du betaler ikke to ganger.',
  paid: 'Betalingen er fullført. Takk for handelen!',
  unavailable: 'Google Pay er ikke tilgjengelig på denne enheten eller i denne nettleseren. Velg en annen betalingsmåte.',
  declined: 'Kortet ditt ble avvist. Prøv igjen med et annet kort.',
  retry: 'Prøv igjen',
  authorized: 'Betalingen er godkjent. Butikken trekker beløpet fra kortet ditt når bestillingen sendes.',
  captured: 'Betalingen er fullført. Butikken har trukket beløpet fra kortet ditt.',
  released: 'Butikken har kansellert betalingen og frigitt det reserverte beløpet på kortet ditt – du blir ikke belastet.',
  authenticating: 'Bekreft betalingen hos banken din for å fortsette.',
  reviewOrder: 'Prisen på bestillingen din kunne ikke bekreftes, og ingen penger er trukket. Se over bestillingen og prøv igjen.',
  challenge: { title: 'Bekreft betalingen', frame: 'Bekreftelse hos banken din (3-D Secure)', cancel: 'Avbryt' },
  errors: {
    invalid_client_secret: 'Denne betalingen er ikke satt opp riktig. Kontakt butikken.',
    session_unauthorized: 'Betalingen kunne ikke verifiseres. Last inn siden på nytt, eller gå tilbake til butikken og start på nytt.',
    origin_not_allowed: 'Denne betalingen er ikke satt opp for dette nettstedet. Kontakt butikken.',
    session_not_found: 'Vi fant ikke denne betalingen. Den kan ha utløpt – gå tilbake til butikken og start på nytt.',
    session_expired: 'Betalingen har utløpt, og ingen penger er trukket. Gå tilbake til butikken for å starte på nytt.',
    network_error: 'Vi fikk ikke kontakt med betalingsserveren. Sjekk internettforbindelsen og prøv igjen.',
    server_error: 'Noe gikk galt hos oss. Prøv igjen.',
    store_unavailable: 'Betalingen er midlertidig utilgjengelig. Prøv igjen om noen sekunder – du betaler ikke to ganger.',
    wallet_unavailable: 'Google Pay kunne ikke lastes inn. Prøv igjen.',
    wallet_error: 'Google Pay kunne ikke fullføre betalingen. Prøv igjen.',
    payment_failed: 'Betalingen kunne ikke fullføres, og ingen penger er trukket. Prøv igjen.',
    payment_not_completed: 'Betalingen din ble ikke fullført, og ingen penger er trukket. Du kan prøve igjen.',
    challenge_blocked: 'Bekreftelsen fra banken din kunne ikke vises på denne siden, og ingen penger er trukket. Prøv et annet kort eller en annen betalingsmåte.',
  },
  saving: {
    agreements: {
      'saved_card.recurring.v1': 'Du tillater {merchant} å belaste dette kortet med {amount} {period} for {what}, uten å spørre deg hver gang, til du sier opp hos {merchant}.',
      'saved_card.unscheduled.v1': 'Du tillater {merchant} å lagre dette kortet og belaste det, uten å spørre deg hver gang, for det du skylder for {what}, inkludert beløp som oppstår etter et kjøp, til du ber {merchant} om å fjerne det.',
      'saved_card.reload.v1': 'Du tillater {merchant} å belaste dette kortet med {amount} hver gang saldoen på {what} faller under {threshold}, uten å spørre deg hver gang, til du sier opp hos {merchant}.',
    },
    subjects: { recurring: 'abonnementet ditt', unscheduled: 'kjøpene dine', reload: 'kontoen din' },
    periods: { day: 'hver dag', week: 'hver uke', month: 'hver måned', year: 'hvert år', many: 'hver {count}' },
    nothingToday: 'Ingenting belastes i dag.',
  },
  declines: {
    card_declined: 'Kortet ditt ble avvist. Prøv igjen med et annet kort.',
    insufficient_funds: 'Det er ikke dekning på kortet. Prøv igjen med et annet kort.',
    expired_card: 'Kortet har utløpt. Prøv igjen med et annet kort.',
    processing_error: 'Det oppstod en feil da kortet skulle behandles. Prøv igjen om litt.',
    authentication_required: 'Kortet krever en bekreftelse som denne betalingen ikke støtter. Prøv igjen med et annet kort.',
    invalid_number: 'Kortnummeret er ugyldig. Prøv igjen med et annet kort.',
    authentication_failed: 'Banken din bekreftet ikke betalingen. Prøv igjen, eller bruk et annet kort.',
    authentication_abandoned: 'Bekreftelsen hos banken din ble ikke fullført. Du kan prøve igjen.',
  },
};
