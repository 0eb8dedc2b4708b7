import type { Messages } from '.';

// Formal "vy" (vykání, lowercase "vaše" as in Czech shop and bank UIs). Charge: "strhnout" / "účtovat";
// the hold is "blokace částky"; "– částku vám dvakrát nestrhneme" is the "won't be charged twice" reassurance.
export const cs: Messages = {
  loading: 'Načítání platby…',
  processing: 'Zpracováváme vaši platbu…',
  confirming: 'Potvrzujeme vaši platbu. Nechte prosím tuto stránku otevřenou – částku vám dvakrát nestrhneme.',
  paid: 'Platba proběhla. Děkujeme!',
  unavailable: 'Google Pay není na tomto zařízení nebo v tomto prohlížeči k dispozici. Zvolte prosím jiný způsob platby.',
  declined: 'Platba kartou byla zamítnuta. Zkuste to prosím s jinou kartou.',
  retry: 'Zkusit znovu',
  authorized: 'Platba je schválena. Obchod částku z vaší karty strhne při odeslání objednávky.',
  captured: 'Platba proběhla. Obchod částku z vaší karty strhl.',
  released: 'Obchod tuto platbu zrušil a uvolnil blokaci částky na vaší kartě – nic vám nebude účtováno.',
  authenticating: 'Pro pokračování potvrďte platbu u své banky.',
  reviewOrder: 'Cenu vaší objednávky se nepodařilo potvrdit a nic vám nebylo účtováno. Zkontrolujte prosím objednávku a zkuste to znovu.',
  challenge: { title: 'Potvrďte platbu', frame: 'Ověření u vaší banky (3-D Secure)', cancel: 'Zrušit' },
  errors: {
    invalid_client_secret: 'Tato platba není správně nastavená. Obraťte se prosím na obchod.',
    session_unauthorized: 'Tuto platbu se nepodařilo ověřit. Načtěte stránku znovu, nebo se vraťte do obchodu a začněte od začátku.',
    origin_not_allowed: 'Tato platba není pro tento web nastavená. Obraťte se prosím na obchod.',
    session_not_found: 'Tuto platbu se nepodařilo najít. Možná vypršela – vraťte se prosím do obchodu a začněte od začátku.',
    session_expired: 'Platnost této platby vypršela a nic vám nebylo účtováno. Vraťte se prosím do obchodu a začněte od začátku.',
    network_error: 'Nepodařilo se spojit s platebním serverem. Zkontrolujte připojení a zkuste to znovu.',
    server_error: 'Na naší straně se něco pokazilo. Zkuste to prosím znovu.',
    store_unavailable: 'Platba je na okamžik nedostupná. Zkuste to prosím za pár sekund znovu – částku vám dvakrát nestrhneme.',
    wallet_unavailable: 'Službu Google Pay se nepodařilo načíst. Zkuste to prosím znovu.',
    wallet_error: 'Službě Google Pay se nepodařilo platbu dokončit. Zkuste to prosím znovu.',
    payment_failed: 'Platbu se nepodařilo dokončit a nic vám nebylo účtováno. Zkuste to prosím znovu.',
    payment_not_completed: 'Platba nebyla dokončena a nic vám nebylo účtováno. Můžete to zkusit znovu.',
    challenge_blocked: 'Ověření u vaší banky se na této stránce nepodařilo zobrazit a nic vám nebylo účtováno. Zkuste prosím jinou kartu nebo jiný způsob platby.',
  },
  saving: {
    agreements: {
      'saved_card.recurring.v1': 'Povolujete {merchant} strhávat z této karty {amount} {period} za {what}, aniž by se vás pokaždé ptal, dokud to u {merchant} nezrušíte.',
      'saved_card.unscheduled.v1': 'Povolujete {merchant} uložit si tuto kartu a strhávat z ní, aniž by se vás pokaždé ptal, to, co dlužíte za {what}, včetně poplatků vzniklých po nákupu, dokud {merchant} nepožádáte o její odstranění.',
      'saved_card.reload.v1': 'Povolujete {merchant} strhnout z této karty {amount} pokaždé, když zůstatek {what} klesne pod {threshold}, aniž by se vás pokaždé ptal, dokud to u {merchant} nezrušíte.',
    },
    subjects: { recurring: 'vašeho předplatného', unscheduled: 'vašich nákupů', reload: 'vašeho účtu' },
    periods: { day: 'každý den', week: 'každý týden', month: 'každý měsíc', year: 'každý rok', many: 'každé {count}' },
    nothingToday: 'Dnes se nic nestrhává.',
  },
  declines: {
    card_declined: 'Platba kartou byla zamítnuta. Zkuste to s jinou kartou.',
    insufficient_funds: 'Na kartě není dostatek prostředků. Zkuste to s jinou kartou.',
    expired_card: 'Platnost karty vypršela. Zkuste to s jinou kartou.',
    processing_error: 'Při zpracování karty došlo k chybě. Zkuste to prosím za chvíli znovu.',
    authentication_required: 'Karta vyžaduje ověření, které tato platba neumožňuje. Zkuste to s jinou kartou.',
    invalid_number: 'Číslo karty není platné. Zkuste to s jinou kartou.',
    authentication_failed: 'Vaše banka platbu nepotvrdila. Zkuste to znovu, nebo použijte jinou kartu.',
    authentication_abandoned: 'Ověření u vaší banky nebylo dokončeno. Můžete to zkusit znovu.',
  },
};
