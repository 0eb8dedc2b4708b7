import type { Messages } from '.';

// Informal "tu", as Italian online shops, wallets and bank apps address their customers today.
// "Addebitare" for charge, "importo riservato" for the hold; "non pagherai due volte" as the reassurance.
export const it: Messages = {
  loading: 'Caricamento del pagamento…',
  processing: 'Pagamento in corso…',
  confirming: 'Stiamo confermando il pagamento. Tieni aperta questa pagina: non pagherai due volte.',
  paid: 'Pagamento completato. Grazie!',
  unavailable: 'Google Pay non è disponibile su questo dispositivo o browser. Scegli un altro metodo di pagamento.',
  declined: "La carta è stata rifiutata. Riprova con un'altra carta.",
  retry: 'Riprova',
  authorized: "Pagamento autorizzato. Il negozio addebiterà l'importo sulla tua carta alla spedizione dell'ordine.",
  captured: "Pagamento completato. Il negozio ha addebitato l'importo sulla tua carta.",
  released: "Il negozio ha annullato questo pagamento e sbloccato l'importo riservato sulla tua carta: non ti verrà addebitato nulla.",
  authenticating: 'Conferma il pagamento con la tua banca per continuare.',
  reviewOrder: "Non è stato possibile confermare il prezzo dell'ordine e non è stato addebitato nulla. Controlla l'ordine e riprova.",
  challenge: { title: 'Conferma il pagamento', frame: 'Verifica della tua banca (3-D Secure)', cancel: 'Annulla' },
  errors: {
    invalid_client_secret: 'Questo pagamento non è configurato correttamente. Contatta il negozio.',
    session_unauthorized: 'Non è stato possibile verificare questo pagamento. Ricarica la pagina, oppure torna al negozio e ricomincia.',
    origin_not_allowed: 'Questo pagamento non è configurato per questo sito. Contatta il negozio.',
    session_not_found: 'Pagamento non trovato. Potrebbe essere scaduto: torna al negozio e ricomincia.',
    session_expired: 'Questo pagamento è scaduto e non è stato addebitato nulla. Torna al negozio per ricominciare.',
    network_error: 'Impossibile raggiungere il server di pagamento. Controlla la connessione e riprova.',
    server_error: 'Si è verificato un errore da parte nostra. Riprova.',
    store_unavailable: 'Al momento il pagamento non è disponibile. Riprova tra qualche secondo: non pagherai due volte.',
    wallet_unavailable: 'Impossibile caricare Google Pay. Riprova.',
    wallet_error: 'Google Pay non è riuscito a completare il pagamento. Riprova.',
    payment_failed: 'Il pagamento non è andato a buon fine e non è stato addebitato nulla. Riprova.',
    payment_not_completed: 'Il pagamento non è stato completato e non è stato addebitato nulla. Puoi riprovare.',
    challenge_blocked: "Non è stato possibile mostrare la verifica della tua banca su questa pagina e non è stato addebitato nulla. Prova con un'altra carta o un altro metodo di pagamento.",
  },
  saving: {
    agreements: {
      'saved_card.recurring.v1': 'Autorizzi {merchant} ad addebitare {amount} su questa carta {period} per {what}, senza chiedertelo ogni volta, finché non annulli con {merchant}.',
      'saved_card.unscheduled.v1': 'Autorizzi {merchant} a conservare questa carta e ad addebitarvi, senza chiedertelo ogni volta, quanto devi per {what}, compresi gli addebiti che sorgono dopo un acquisto, finché non chiedi a {merchant} di rimuoverla.',
      'saved_card.reload.v1': 'Autorizzi {merchant} ad addebitare {amount} su questa carta ogni volta che il saldo di {what} scende sotto {threshold}, senza chiedertelo ogni volta, finché non annulli con {merchant}.',
    },
    subjects: { recurring: 'il tuo abbonamento', unscheduled: 'i tuoi acquisti', reload: 'il tuo account' },
    periods: { day: 'ogni giorno', week: 'ogni settimana', month: 'ogni mese', year: 'ogni anno', many: 'ogni {count}' },
    nothingToday: 'Oggi non viene addebitato nulla.',
  },
  declines: {
    card_declined: "La carta è stata rifiutata. Riprova con un'altra carta.",
    insufficient_funds: "Disponibilità insufficiente sulla carta. Riprova con un'altra carta.",
    expired_card: "Questa carta è scaduta. Riprova con un'altra carta.",
    processing_error: "Si è verificato un errore durante l'elaborazione della carta. Riprova tra un momento.",
    authentication_required: "Questa carta richiede un'autenticazione che questo pagamento non supporta. Riprova con un'altra carta.",
    invalid_number: "Il numero della carta non è valido. Riprova con un'altra carta.",
    authentication_failed: "La tua banca non ha confermato il pagamento. Riprova o usa un'altra carta.",
    authentication_abandoned: 'La verifica della tua banca non è stata completata. Puoi riprovare.',
  },
};
