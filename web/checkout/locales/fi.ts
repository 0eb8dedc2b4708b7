import type { Messages } from '.';

// Informal "sinä" and the passive, as Finnish banks, shops and Google write; the formal "Te" reads old-fashioned in Finnish commerce.
// Charge: "veloittaa"; hold: "katevaraus" (the banks' word). "Google Pay" is never inflected, so sentences are built around it.
export const fi: Messages = {
  loading: 'Ladataan maksua…',
  processing: 'Maksuasi käsitellään…',
  confirming: 'Vahvistamme maksuasi. Pidä tämä sivu auki – sinua ei veloiteta kahdesti.',
  paid: 'Maksu onnistui. Kiitos!',
  unavailable: 'Google Pay ei ole käytettävissä tällä laitteella tai selaimella. Valitse toinen maksutapa.',
  declined: 'Korttisi hylättiin. Kokeile toista korttia.',
  retry: 'Yritä uudelleen',
  authorized: 'Maksu on hyväksytty. Kauppa veloittaa korttiasi, kun tilauksesi lähetetään.',
  captured: 'Maksu onnistui. Kauppa on veloittanut korttiasi.',
  released: 'Kauppa perui tämän maksun ja vapautti korttisi katevarauksen – sinua ei veloiteta.',
  authenticating: 'Jatka vahvistamalla maksu pankissasi.',
  reviewOrder: 'Tilauksesi hintaa ei voitu vahvistaa, eikä sinulta veloitettu mitään. Tarkista tilauksesi ja yritä uudelleen.',
  challenge: { title: 'Vahvista maksu', frame: 'Pankin vahvistus (3-D Secure)', cancel: 'Peruuta' },
  errors: {
    invalid_client_secret: 'Tätä maksua ei ole määritetty oikein. Ota yhteyttä kauppaan.',
    session_unauthorized: 'Tätä maksua ei voitu tarkistaa. Lataa sivu uudelleen tai palaa kauppaan ja aloita alusta.',
    origin_not_allowed: 'Tätä maksua ei ole määritetty tälle sivustolle. Ota yhteyttä kauppaan.',
    session_not_found: 'Maksua ei löytynyt. Se on voinut vanhentua – palaa kauppaan ja aloita alusta.',
    session_expired: 'Tämä maksu on vanhentunut, eikä sinulta veloitettu mitään. Palaa kauppaan ja aloita alusta.',
    network_error: 'Maksupalvelimeen ei saatu yhteyttä. Tarkista verkkoyhteys ja yritä uudelleen.',
    server_error: 'Meillä tapahtui virhe. Yritä uudelleen.',
    store_unavailable: 'Maksaminen ei ole juuri nyt käytettävissä. Yritä uudelleen muutaman sekunnin kuluttua – sinua ei veloiteta kahdesti.',
    wallet_unavailable: 'Google Pay ei latautunut. Yritä uudelleen.',
    wallet_error: 'Google Pay ei voinut viedä maksua loppuun. Yritä uudelleen.',
    payment_failed: 'Maksu ei onnistunut, eikä sinulta veloitettu mitään. Yritä uudelleen.',
    payment_not_completed: 'Maksusi jäi kesken, eikä sinulta veloitettu mitään. Voit yrittää uudelleen.',
    challenge_blocked: 'Pankin vahvistusta ei voitu näyttää tällä sivulla, eikä sinulta veloitettu mitään. Kokeile toista korttia tai maksutapaa.',
  },
  saving: {
    agreements: {
      'saved_card.recurring.v1': 'Sallit, että {merchant} veloittaa tältä kortilta {amount} {period} kohteesta {what} kysymättä sinulta joka kerta, kunnes peruutat sen {merchant}-palvelussa.',
      'saved_card.unscheduled.v1': 'Sallit, että {merchant} tallentaa tämän kortin ja veloittaa siltä kysymättä sinulta joka kerta sen, mitä olet velkaa kohteesta {what}, mukaan lukien oston jälkeen syntyvät maksut, kunnes pyydät {merchant}-palvelua poistamaan sen.',
      'saved_card.reload.v1': 'Sallit, että {merchant} veloittaa tältä kortilta {amount} aina, kun kohteen {what} saldo laskee alle {threshold}, kysymättä sinulta joka kerta, kunnes peruutat sen {merchant}-palvelussa.',
    },
    subjects: { recurring: 'tilauksesi', unscheduled: 'ostoksesi', reload: 'tilisi' },
    periods: { day: 'joka päivä', week: 'joka viikko', month: 'joka kuukausi', year: 'joka vuosi', many: '{count} välein' },
    nothingToday: 'Tänään ei veloiteta mitään.',
  },
  declines: {
    card_declined: 'Kortti hylättiin. Kokeile toista korttia.',
    insufficient_funds: 'Kortilla ei ole riittävästi katetta. Kokeile toista korttia.',
    expired_card: 'Kortti on vanhentunut. Kokeile toista korttia.',
    processing_error: 'Kortin käsittelyssä tapahtui virhe. Yritä hetken kuluttua uudelleen.',
    authentication_required: 'Kortti vaatii tunnistautumisen, jota tämä maksu ei tue. Kokeile toista korttia.',
    invalid_number: 'Kortin numero on virheellinen. Kokeile toista korttia.',
    authentication_failed: 'Pankkisi ei vahvistanut maksua. Yritä uudelleen tai käytä toista korttia.',
    authentication_abandoned: 'Pankin vahvistus jäi kesken. Voit yrittää uudelleen.',
  },
};
