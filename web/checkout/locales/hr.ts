import type { Messages } from '.';

// Formal "vi" (lowercase "vaša", as Google writes Croatian); buttons in the usual short UI form ("Pokušaj ponovno", "Odustani").
// Charge: "teretiti karticu" / "naplatiti"; hold: "rezervacija iznosa".
export const hr: Messages = {
  loading: 'Učitavanje plaćanja…',
  processing: 'Obrađujemo vaše plaćanje…',
  confirming: 'Potvrđujemo vaše plaćanje. Nemojte zatvarati ovu stranicu – kartica vam neće biti terećena dvaput.',
  paid: 'Plaćanje je uspjelo. Hvala!',
  unavailable: 'Google Pay nije dostupan na ovom uređaju ili u ovom pregledniku. Odaberite drugi način plaćanja.',
  declined: 'Vaša kartica je odbijena. Pokušajte s drugom karticom.',
  retry: 'Pokušaj ponovno',
  authorized: 'Plaćanje je odobreno. Trgovina će teretiti vašu karticu kad pošalje narudžbu.',
  captured: 'Plaćanje je uspjelo. Trgovina je teretila vašu karticu.',
  released: 'Trgovina je otkazala ovo plaćanje i oslobodila rezervaciju iznosa na vašoj kartici – ništa vam neće biti naplaćeno.',
  authenticating: 'Za nastavak potvrdite plaćanje kod svoje banke.',
  reviewOrder: 'Cijenu vaše narudžbe nije bilo moguće potvrditi i ništa nije naplaćeno. Provjerite narudžbu i pokušajte ponovno.',
  challenge: { title: 'Potvrdite plaćanje', frame: 'Provjera kod vaše banke (3-D Secure)', cancel: 'Odustani' },
  errors: {
    invalid_client_secret: 'Ovo plaćanje nije ispravno postavljeno. Obratite se trgovini.',
    session_unauthorized: 'Ovo plaćanje nije bilo moguće provjeriti. Ponovno učitajte stranicu ili se vratite u trgovinu i počnite ispočetka.',
    origin_not_allowed: 'Ovo plaćanje nije postavljeno za ovu web-stranicu. Obratite se trgovini.',
    session_not_found: 'Ovo plaćanje nije pronađeno. Možda je isteklo – vratite se u trgovinu i počnite ispočetka.',
    session_expired: 'Ovo plaćanje je isteklo i ništa nije naplaćeno. Vratite se u trgovinu i počnite ispočetka.',
    network_error: 'Povezivanje s poslužiteljem za plaćanje nije uspjelo. Provjerite vezu i pokušajte ponovno.',
    server_error: 'Kod nas je došlo do pogreške. Pokušajte ponovno.',
    store_unavailable: 'Plaćanje je nakratko nedostupno. Pokušajte ponovno za nekoliko sekundi – kartica vam neće biti terećena dvaput.',
    wallet_unavailable: 'Učitavanje usluge Google Pay nije uspjelo. Pokušajte ponovno.',
    wallet_error: 'Usluga Google Pay nije mogla dovršiti plaćanje. Pokušajte ponovno.',
    payment_failed: 'Plaćanje nije uspjelo i ništa nije naplaćeno. Pokušajte ponovno.',
    payment_not_completed: 'Plaćanje nije dovršeno i ništa nije naplaćeno. Možete pokušati ponovno.',
    challenge_blocked: 'Provjeru kod vaše banke nije bilo moguće prikazati na ovoj stranici i ništa nije naplaćeno. Pokušajte s drugom karticom ili drugim načinom plaćanja.',
  },
  saving: {
    agreements: {
      'saved_card.recurring.v1': 'Dopuštate da {merchant} tereti ovu karticu za {amount} {period} za {what}, bez pitanja svaki put, dok to ne otkažete kod {merchant}.',
      'saved_card.unscheduled.v1': 'Dopuštate da {merchant} spremi ovu karticu i tereti je, bez pitanja svaki put, za ono što dugujete za {what}, uključujući troškove nastale nakon kupnje, dok ne zatražite od {merchant} da je ukloni.',
      'saved_card.reload.v1': 'Dopuštate da {merchant} tereti ovu karticu za {amount} svaki put kad saldo {what} padne ispod {threshold}, bez pitanja svaki put, dok to ne otkažete kod {merchant}.',
    },
    subjects: { recurring: 'vaše pretplate', unscheduled: 'vaše kupnje', reload: 'vašeg računa' },
    periods: { day: 'svaki dan', week: 'svaki tjedan', month: 'svaki mjesec', year: 'svake godine', many: 'svakih {count}' },
    nothingToday: 'Danas se ništa ne naplaćuje.',
  },
  declines: {
    card_declined: 'Kartica je odbijena. Pokušajte s drugom karticom.',
    insufficient_funds: 'Na kartici nema dovoljno sredstava. Pokušajte s drugom karticom.',
    expired_card: 'Kartica je istekla. Pokušajte s drugom karticom.',
    processing_error: 'Pri obradi kartice došlo je do pogreške. Pokušajte ponovno za trenutak.',
    authentication_required: 'Kartica zahtijeva provjeru autentičnosti koju ovo plaćanje ne podržava. Pokušajte s drugom karticom.',
    invalid_number: 'Broj kartice nije valjan. Pokušajte s drugom karticom.',
    authentication_failed: 'Vaša banka nije potvrdila plaćanje. Pokušajte ponovno ili upotrijebite drugu karticu.',
    authentication_abandoned: 'Provjera kod vaše banke nije dovršena. Možete pokušati ponovno.',
  },
};
