import type { Messages } from '.';

// Informal "je", as Dutch shops and banks (bol.com, ING, iDEAL's own screens) address customers; Flemish
// shops lean more to "u", which a reviewer in Belgium may prefer. "Afschrijven" for charge, "reservering" for the hold.
export const nl: Messages = {
  loading: 'Betaling wordt geladen…',
  processing: 'Je betaling wordt verwerkt…',
  confirming: 'We bevestigen je betaling. Houd deze pagina open: je betaalt niet twee keer.',
  paid: 'Betaling gelukt. Bedankt!',
  unavailable: 'Google Pay is niet beschikbaar op dit apparaat of in deze browser. Kies een andere betaalmethode.',
  declined: 'Je kaart is geweigerd. Probeer het opnieuw met een andere kaart.',
  retry: 'Opnieuw proberen',
  authorized: 'Betaling goedgekeurd. De winkel schrijft het bedrag van je kaart af zodra je bestelling is verzonden.',
  captured: 'Betaling gelukt. De winkel heeft het bedrag van je kaart afgeschreven.',
  released: 'De winkel heeft deze betaling geannuleerd en de reservering op je kaart vrijgegeven: er wordt niets afgeschreven.',
  authenticating: 'Bevestig de betaling bij je bank om verder te gaan.',
  reviewOrder: 'De prijs van je bestelling kon niet worden bevestigd en er is niets afgeschreven. Controleer je bestelling en probeer het opnieuw.',
  challenge: { title: 'Bevestig je betaling', frame: 'Verificatie door je bank (3-D Secure)', cancel: 'Annuleren' },
  errors: {
    invalid_client_secret: 'Deze betaling is niet goed ingesteld. Neem contact op met de winkel.',
    session_unauthorized: 'Deze betaling kon niet worden gecontroleerd. Laad de pagina opnieuw, of ga terug naar de winkel en begin opnieuw.',
    origin_not_allowed: 'Deze betaling is niet ingesteld voor deze website. Neem contact op met de winkel.',
    session_not_found: 'Deze betaling is niet gevonden en is misschien verlopen: ga terug naar de winkel en begin opnieuw.',
    session_expired: 'Deze betaling is verlopen en er is niets afgeschreven. Ga terug naar de winkel om opnieuw te beginnen.',
    network_error: 'We kunnen de betaalserver niet bereiken. Controleer je verbinding en probeer het opnieuw.',
    server_error: 'Er ging bij ons iets mis. Probeer het opnieuw.',
    store_unavailable: 'Betalen is even niet mogelijk. Probeer het over een paar seconden opnieuw: je betaalt niet twee keer.',
    wallet_unavailable: 'Google Pay kon niet worden geladen. Probeer het opnieuw.',
    wallet_error: 'Google Pay kon de betaling niet afronden. Probeer het opnieuw.',
    payment_failed: 'De betaling is niet gelukt en er is niets afgeschreven. Probeer het opnieuw.',
    payment_not_completed: 'Je betaling is niet afgerond en er is niets afgeschreven. Je kunt het opnieuw proberen.',
    challenge_blocked: 'De verificatie van je bank kon niet op deze pagina worden getoond en er is niets afgeschreven. Probeer een andere kaart of een andere betaalmethode.',
  },
  saving: {
    agreements: {
      'saved_card.recurring.v1': 'U staat {merchant} toe deze kaart {period} {amount} te belasten voor {what}, zonder het u elke keer te vragen, totdat u opzegt bij {merchant}.',
      'saved_card.unscheduled.v1': 'U staat {merchant} toe deze kaart te bewaren en te belasten, zonder het u elke keer te vragen, voor wat u verschuldigd bent voor {what}, inclusief kosten die na een aankoop ontstaan, totdat u {merchant} vraagt hem te verwijderen.',
      'saved_card.reload.v1': 'U staat {merchant} toe deze kaart met {amount} te belasten telkens wanneer het saldo van {what} onder {threshold} zakt, zonder het u elke keer te vragen, totdat u opzegt bij {merchant}.',
    },
    subjects: { recurring: 'uw abonnement', unscheduled: 'uw aankopen', reload: 'uw account' },
    periods: { day: 'elke dag', week: 'elke week', month: 'elke maand', year: 'elk jaar', many: 'elke {count}' },
    nothingToday: 'Vandaag wordt er niets afgeschreven.',
  },
  declines: {
    card_declined: 'Je kaart is geweigerd. Probeer het opnieuw met een andere kaart.',
    insufficient_funds: 'Er is niet genoeg saldo of bestedingsruimte op deze kaart. Probeer het opnieuw met een andere kaart.',
    expired_card: 'Deze kaart is verlopen. Probeer het opnieuw met een andere kaart.',
    processing_error: 'Er ging iets mis bij het verwerken van de kaart. Probeer het zo nog eens.',
    authentication_required: 'Deze kaart vraagt om een verificatie die deze betaling niet ondersteunt. Probeer het opnieuw met een andere kaart.',
    invalid_number: 'Het kaartnummer is ongeldig. Probeer het opnieuw met een andere kaart.',
    authentication_failed: 'Je bank heeft de betaling niet bevestigd. Probeer het opnieuw of gebruik een andere kaart.',
    authentication_abandoned: 'De verificatie bij je bank is niet afgerond. Je kunt het opnieuw proberen.',
  },
};
