import type { Messages } from '.';

// European Portuguese, formal third person without "você" ("o seu cartão", "Tente"), as Portuguese shops and banks
// write. "Debitar" for charge, "valor cativo" for the hold (the banks' word), "plafond" for a credit card's limit.
export const ptPT: Messages = {
  loading: 'A carregar o pagamento…',
  processing: 'A processar o seu pagamento…',
  confirming: 'Estamos a confirmar o seu pagamento. Mantenha esta página aberta: não vai pagar duas vezes.',
  paid: 'Pagamento concluído. Obrigado!',
  unavailable: 'O Google Pay não está disponível neste dispositivo ou navegador. Escolha outro método de pagamento.',
  declined: 'O seu cartão foi recusado. Tente novamente com outro cartão.',
  retry: 'Tentar novamente',
  authorized: 'Pagamento autorizado. A loja vai debitar o seu cartão quando a encomenda for enviada.',
  captured: 'Pagamento concluído. A loja debitou o seu cartão.',
  released: 'A loja cancelou este pagamento e libertou o valor cativo no seu cartão: não lhe será cobrado nada.',
  authenticating: 'Confirme o pagamento junto do seu banco para continuar.',
  reviewOrder: 'Não foi possível confirmar o preço da sua encomenda, e não foi cobrado nada. Reveja a sua encomenda e tente novamente.',
  challenge: { title: 'Confirme o seu pagamento', frame: 'Verificação do seu banco (3-D Secure)', cancel: 'Cancelar' },
  errors: {
    invalid_client_secret: 'Este pagamento não está configurado corretamente. Contacte a loja.',
    session_unauthorized: 'Não foi possível verificar este pagamento. Recarregue a página ou volte à loja e comece de novo.',
    origin_not_allowed: 'Este pagamento não está configurado para este site. Contacte a loja.',
    session_not_found: 'Este pagamento não foi encontrado. Pode ter expirado: volte à loja e comece de novo.',
    session_expired: 'Este pagamento expirou e não foi cobrado nada. Volte à loja para começar de novo.',
    network_error: 'Não foi possível ligar ao servidor de pagamentos. Verifique a sua ligação e tente novamente.',
    server_error: 'Ocorreu um erro do nosso lado. Tente novamente.',
    store_unavailable: 'O pagamento está momentaneamente indisponível. Tente novamente dentro de alguns segundos: não vai pagar duas vezes.',
    wallet_unavailable: 'Não foi possível carregar o Google Pay. Tente novamente.',
    wallet_error: 'O Google Pay não conseguiu concluir o pagamento. Tente novamente.',
    payment_failed: 'Não foi possível concluir o pagamento, e não foi cobrado nada. Tente novamente.',
    payment_not_completed: 'O seu pagamento não foi concluído, e não foi cobrado nada. Pode tentar novamente.',
    challenge_blocked: 'Não foi possível apresentar a verificação do seu banco nesta página, e não foi cobrado nada. Experimente outro cartão ou outro método de pagamento.',
  },
  saving: {
    agreements: {
      'saved_card.recurring.v1': 'Autoriza {merchant} a cobrar {amount} neste cartão {period} por {what}, sem lhe perguntar de cada vez, até cancelar junto de {merchant}.',
      'saved_card.unscheduled.v1': 'Autoriza {merchant} a guardar este cartão e a cobrar nele, sem lhe perguntar de cada vez, o que deve por {what}, incluindo encargos que surjam após uma compra, até pedir a {merchant} que o remova.',
      'saved_card.reload.v1': 'Autoriza {merchant} a cobrar {amount} neste cartão sempre que o saldo de {what} descer abaixo de {threshold}, sem lhe perguntar de cada vez, até cancelar junto de {merchant}.',
    },
    subjects: { recurring: 'a sua subscrição', unscheduled: 'as suas compras', reload: 'a sua conta' },
    periods: { day: 'todos os dias', week: 'todas as semanas', month: 'todos os meses', year: 'todos os anos', many: 'a cada {count}' },
    nothingToday: 'Hoje não é cobrado nada.',
  },
  declines: {
    card_declined: 'O seu cartão foi recusado. Tente novamente com outro cartão.',
    insufficient_funds: 'Saldo ou plafond insuficiente neste cartão. Tente novamente com outro cartão.',
    expired_card: 'Este cartão expirou. Tente novamente com outro cartão.',
    processing_error: 'Ocorreu um erro ao processar o cartão. Tente novamente daqui a pouco.',
    authentication_required: 'Este cartão exige uma autenticação que este pagamento não permite. Tente novamente com outro cartão.',
    invalid_number: 'O número do cartão não é válido. Tente novamente com outro cartão.',
    authentication_failed: 'O seu banco não confirmou o pagamento. Tente novamente ou utilize outro cartão.',
    authentication_abandoned: 'A verificação do seu banco não foi concluída. Pode tentar novamente.',
  },
};
