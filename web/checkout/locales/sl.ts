import type { Messages } from '.';

// Formal vikanje, as Slovenian shops and banks write; buttons in the usual short UI form ("Poskusi znova", "Prekliči").
// Charge: "bremeniti kartico"; hold: "rezervacija sredstev". A no-break space before "…", as Slovenian spacing wants it.
export const sl: Messages = {
  loading: 'Nalaganje plačila\u00a0…',
  processing: 'Obdelujemo vaše plačilo\u00a0…',
  confirming: 'Potrjujemo vaše plačilo. Prosimo, ne zapirajte te strani – vaša kartica ne bo dvakrat bremenjena.',
  paid: 'Plačilo je uspelo. Hvala!',
  unavailable: 'Google Pay v tej napravi ali tem brskalniku ni na voljo. Izberite drug način plačila.',
  declined: 'Vaša kartica je bila zavrnjena. Poskusite z drugo kartico.',
  retry: 'Poskusi znova',
  authorized: 'Plačilo je odobreno. Trgovina bo kartico bremenila ob odpremi naročila.',
  captured: 'Plačilo je uspelo. Trgovina je bremenila vašo kartico.',
  released: 'Trgovina je preklicala to plačilo in sprostila rezervacijo sredstev na vaši kartici – kartica ne bo bremenjena.',
  authenticating: 'Za nadaljevanje potrdite plačilo pri svoji banki.',
  reviewOrder: 'Cene vašega naročila ni bilo mogoče potrditi in nič ni bilo zaračunano. Preverite naročilo in poskusite znova.',
  challenge: { title: 'Potrdite plačilo', frame: 'Preverjanje pri vaši banki (3-D Secure)', cancel: 'Prekliči' },
  errors: {
    invalid_client_secret: 'To plačilo ni pravilno nastavljeno. Obrnite se na trgovino.',
    session_unauthorized: 'Plačila ni bilo mogoče preveriti. Znova naložite stran ali se vrnite v trgovino in začnite od začetka.',
    origin_not_allowed: 'To plačilo ni nastavljeno za to spletno mesto. Obrnite se na trgovino.',
    session_not_found: 'Plačila ni bilo mogoče najti. Morda je poteklo – vrnite se v trgovino in začnite od začetka.',
    session_expired: 'To plačilo je poteklo in nič ni bilo zaračunano. Vrnite se v trgovino in začnite od začetka.',
    network_error: 'Povezava s plačilnim strežnikom ni uspela. Preverite internetno povezavo in poskusite znova.',
    server_error: 'Pri nas je prišlo do napake. Poskusite znova.',
    store_unavailable: 'Plačevanje trenutno ni na voljo. Poskusite znova čez nekaj sekund – kartica ne bo dvakrat bremenjena.',
    wallet_unavailable: 'Storitve Google Pay ni bilo mogoče naložiti. Poskusite znova.',
    wallet_error: 'Storitev Google Pay ni mogla dokončati plačila. Poskusite znova.',
    payment_failed: 'Plačila ni bilo mogoče dokončati in nič ni bilo zaračunano. Poskusite znova.',
    payment_not_completed: 'Plačilo ni bilo dokončano in nič ni bilo zaračunano. Lahko poskusite znova.',
    challenge_blocked: 'Preverjanja pri vaši banki ni bilo mogoče prikazati na tej strani in nič ni bilo zaračunano. Poskusite z drugo kartico ali drugim načinom plačila.',
  },
  saving: {
    agreements: {
      'saved_card.recurring.v1': 'Dovolite, da {merchant} bremeni to kartico za {amount} {period} za {what}, ne da bi vas vsakič vprašal, dokler tega ne prekličete pri {merchant}.',
      'saved_card.unscheduled.v1': 'Dovolite, da {merchant} shrani to kartico in jo bremeni, ne da bi vas vsakič vprašal, za to, kar dolgujete za {what}, vključno s stroški, nastalimi po nakupu, dokler {merchant} ne prosite, naj jo odstrani.',
      'saved_card.reload.v1': 'Dovolite, da {merchant} bremeni to kartico za {amount} vsakič, ko stanje {what} pade pod {threshold}, ne da bi vas vsakič vprašal, dokler tega ne prekličete pri {merchant}.',
    },
    subjects: { recurring: 'vašo naročnino', unscheduled: 'vaše nakupe', reload: 'vašega računa' },
    periods: { day: 'vsak dan', week: 'vsak teden', month: 'vsak mesec', year: 'vsako leto', many: 'vsakih {count}' },
    nothingToday: 'Danes se ne bremeni nič.',
  },
  declines: {
    card_declined: 'Kartica je bila zavrnjena. Poskusite z drugo kartico.',
    insufficient_funds: 'Na kartici ni dovolj sredstev. Poskusite z drugo kartico.',
    expired_card: 'Kartica je potekla. Poskusite z drugo kartico.',
    processing_error: 'Pri obdelavi kartice je prišlo do napake. Čez trenutek poskusite znova.',
    authentication_required: 'Kartica zahteva preverjanje, ki ga to plačilo ne podpira. Poskusite z drugo kartico.',
    invalid_number: 'Številka kartice ni veljavna. Poskusite z drugo kartico.',
    authentication_failed: 'Vaša banka plačila ni potrdila. Poskusite znova ali uporabite drugo kartico.',
    authentication_abandoned: 'Preverjanje pri vaši banki ni bilo dokončano. Lahko poskusite znova.',
  },
};
