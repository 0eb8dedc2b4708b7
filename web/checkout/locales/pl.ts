import type { Messages } from '.';

// Informal "ty" with lowercase pronouns, mostly impersonal ("nic nie zostało pobrane"), as Google Pay, BLIK and
// the large Polish shops write; "Pan/Pani" reads stiff on a payment button. Charge: "obciążyć kartę" / "pobrać środki"; hold: "blokada środków".
export const pl: Messages = {
  loading: 'Wczytywanie płatności…',
  processing: 'Przetwarzamy płatność…',
  confirming: 'Potwierdzamy płatność. Nie zamykaj tej strony – środki nie zostaną pobrane dwukrotnie.',
  paid: 'Płatność zakończona. Dziękujemy!',
  unavailable: 'Usługa Google Pay jest niedostępna na tym urządzeniu lub w tej przeglądarce. Wybierz inną metodę płatności.',
  declined: 'Płatność kartą została odrzucona. Spróbuj użyć innej karty.',
  retry: 'Spróbuj ponownie',
  authorized: 'Płatność autoryzowana. Sklep obciąży kartę, gdy wyśle zamówienie.',
  captured: 'Płatność zakończona. Sklep obciążył kartę.',
  released: 'Sklep anulował tę płatność i zdjął blokadę środków z karty – nic nie zostanie pobrane.',
  authenticating: 'Aby kontynuować, potwierdź płatność w swoim banku.',
  reviewOrder: 'Nie udało się potwierdzić ceny zamówienia i nic nie zostało pobrane. Sprawdź zamówienie i spróbuj ponownie.',
  challenge: { title: 'Potwierdź płatność', frame: 'Weryfikacja w banku (3-D Secure)', cancel: 'Anuluj' },
  errors: {
    invalid_client_secret: 'Ta płatność nie jest poprawnie skonfigurowana. Skontaktuj się ze sklepem.',
    session_unauthorized: 'Nie udało się zweryfikować tej płatności. Odśwież stronę albo wróć do sklepu i zacznij od nowa.',
    origin_not_allowed: 'Ta płatność nie jest skonfigurowana dla tej strony. Skontaktuj się ze sklepem.',
    session_not_found: 'Nie znaleziono tej płatności. Mogła wygasnąć – wróć do sklepu i zacznij od nowa.',
    session_expired: 'Ta płatność wygasła i nic nie zostało pobrane. Wróć do sklepu i zacznij od nowa.',
    network_error: 'Nie udało się połączyć z serwerem płatności. Sprawdź połączenie i spróbuj ponownie.',
    server_error: 'Coś poszło nie tak po naszej stronie. Spróbuj ponownie.',
    store_unavailable: 'Płatności są chwilowo niedostępne. Spróbuj ponownie za kilka sekund – środki nie zostaną pobrane dwukrotnie.',
    wallet_unavailable: 'Nie udało się wczytać Google Pay. Spróbuj ponownie.',
    wallet_error: 'Nie udało się dokończyć płatności w Google Pay. Spróbuj ponownie.',
    payment_failed: 'Nie udało się zrealizować płatności i nic nie zostało pobrane. Spróbuj ponownie.',
    payment_not_completed: 'Płatność nie została dokończona i nic nie zostało pobrane. Możesz spróbować ponownie.',
    challenge_blocked: 'Nie udało się wyświetlić weryfikacji w banku na tej stronie i nic nie zostało pobrane. Użyj innej karty lub wybierz inną metodę płatności.',
  },
  saving: {
    agreements: {
      'saved_card.recurring.v1': 'Zezwalasz {merchant} na obciążanie tej karty kwotą {amount} {period} za {what}, bez pytania Cię za każdym razem, dopóki nie zrezygnujesz w {merchant}.',
      'saved_card.unscheduled.v1': 'Zezwalasz {merchant} na zapisanie tej karty i obciążanie jej, bez pytania Cię za każdym razem, kwotami, które jesteś winien za {what}, w tym opłatami powstałymi po zakupie, dopóki nie poprosisz {merchant} o jej usunięcie.',
      'saved_card.reload.v1': 'Zezwalasz {merchant} na obciążenie tej karty kwotą {amount} za każdym razem, gdy saldo {what} spadnie poniżej {threshold}, bez pytania Cię za każdym razem, dopóki nie zrezygnujesz w {merchant}.',
    },
    subjects: { recurring: 'Twoją subskrypcję', unscheduled: 'Twoje zakupy', reload: 'Twojego konta' },
    periods: { day: 'codziennie', week: 'co tydzień', month: 'co miesiąc', year: 'co rok', many: 'co {count}' },
    nothingToday: 'Dzisiaj nic nie zostanie pobrane.',
  },
  declines: {
    card_declined: 'Karta została odrzucona. Spróbuj użyć innej karty.',
    insufficient_funds: 'Brak wystarczających środków na karcie. Spróbuj użyć innej karty.',
    expired_card: 'Ta karta straciła ważność. Spróbuj użyć innej karty.',
    processing_error: 'Podczas przetwarzania karty wystąpił błąd. Spróbuj ponownie za chwilę.',
    authentication_required: 'Ta karta wymaga uwierzytelnienia, którego ta płatność nie obsługuje. Spróbuj użyć innej karty.',
    invalid_number: 'Numer karty jest nieprawidłowy. Spróbuj użyć innej karty.',
    authentication_failed: 'Bank nie potwierdził płatności. Spróbuj ponownie lub użyj innej karty.',
    authentication_abandoned: 'Weryfikacja w banku nie została dokończona. Możesz spróbować ponownie.',
  },
};
