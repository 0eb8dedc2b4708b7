import type { Messages } from '.';

// 합쇼체 statements with polite "~해 주세요" requests, as Korean card companies and shops write. Korean takes
// half-width punctuation (no full-width marks); "bank" is 카드사, a hold is 카드 승인, "charged twice" is 중복 결제.
export const ko: Messages = {
  loading: '결제 화면을 불러오는 중…',
  processing: '결제를 처리하는 중…',
  confirming: '결제를 확인하고 있습니다. 이 페이지를 닫지 말고 기다려 주세요. 중복 결제되지 않습니다.',
  paid: '결제가 완료되었습니다. 감사합니다!',
  unavailable: '이 기기 또는 브라우저에서는 Google Pay를 사용할 수 없습니다. 다른 결제 수단을 선택해 주세요.',
  declined: '카드 승인이 거절되었습니다. 다른 카드로 다시 시도해 주세요.',
  retry: '다시 시도',
  authorized: '결제가 승인되었습니다. 상품이 발송되면 상점에서 카드로 대금을 청구합니다.',
  captured: '결제가 완료되었습니다. 상점에서 카드로 대금을 청구했습니다.',
  released: '상점에서 이 결제를 취소하여 카드 승인이 취소되었습니다. 대금은 청구되지 않습니다.',
  authenticating: '계속하려면 카드사에서 결제를 인증해 주세요.',
  reviewOrder: '주문 금액을 확인하지 못했으며 대금은 청구되지 않았습니다. 주문 내용을 확인한 후 다시 시도해 주세요.',
  challenge: { title: '결제 인증', frame: '카드사 본인 인증(3-D Secure)', cancel: '취소' },
  errors: {
    invalid_client_secret: '이 결제 페이지가 올바르게 설정되지 않았습니다. 상점에 문의해 주세요.',
    session_unauthorized: '이 결제를 확인할 수 없습니다. 페이지를 새로 고치거나 상점으로 돌아가 처음부터 다시 진행해 주세요.',
    origin_not_allowed: '이 결제 페이지는 이 웹사이트에서 사용하도록 설정되지 않았습니다. 상점에 문의해 주세요.',
    session_not_found: '이 결제를 찾을 수 없습니다. 유효 시간이 지났을 수 있으니 상점으로 돌아가 처음부터 다시 진행해 주세요.',
    session_expired: '결제 유효 시간이 지났으며 대금은 청구되지 않았습니다. 상점으로 돌아가 처음부터 다시 진행해 주세요.',
    network_error: '결제 서버에 연결할 수 없습니다. 인터넷 연결을 확인한 후 다시 시도해 주세요.',
    server_error: '시스템 오류가 발생했습니다. 다시 시도해 주세요.',
    store_unavailable: '결제 서비스를 잠시 이용할 수 없습니다. 몇 초 후에 다시 시도해 주세요. 중복 결제되지 않습니다.',
    wallet_unavailable: 'Google Pay를 불러오지 못했습니다. 다시 시도해 주세요.',
    wallet_error: 'Google Pay에서 결제를 완료하지 못했습니다. 다시 시도해 주세요.',
    payment_failed: '결제를 완료하지 못했으며 대금은 청구되지 않았습니다. 다시 시도해 주세요.',
    payment_not_completed: '결제가 완료되지 않았으며 대금은 청구되지 않았습니다. 다시 시도하실 수 있습니다.',
    challenge_blocked: '카드사 인증 화면을 이 페이지에 표시할 수 없었으며 대금은 청구되지 않았습니다. 다른 카드나 다른 결제 수단을 이용해 주세요.',
  },
  saving: {
    agreements: {
      'saved_card.recurring.v1': '{merchant}이(가) {what}에 대해 매번 묻지 않고 이 카드에 {period} {amount}을(를) 청구하도록 허용합니다. {merchant}에서 해지할 때까지 유효합니다.',
      'saved_card.unscheduled.v1': '{merchant}이(가) 이 카드를 저장하고, 구매 후 발생하는 요금을 포함하여 {what}에 대해 지불할 금액을 매번 묻지 않고 청구하도록 허용합니다. {merchant}에 삭제를 요청할 때까지 유효합니다.',
      'saved_card.reload.v1': '{what} 잔액이 {threshold} 미만으로 떨어질 때마다 {merchant}이(가) 매번 묻지 않고 이 카드에 {amount}을(를) 청구하도록 허용합니다. {merchant}에서 해지할 때까지 유효합니다.',
    },
    subjects: { recurring: '구독', unscheduled: '구매', reload: '계정' },
    periods: { day: '매일', week: '매주', month: '매월', year: '매년', many: '{count}마다' },
    nothingToday: '오늘은 청구되는 금액이 없습니다.',
  },
  declines: {
    card_declined: '카드 승인이 거절되었습니다. 다른 카드로 다시 시도해 주세요.',
    insufficient_funds: '카드 잔액 또는 한도가 부족합니다. 다른 카드로 다시 시도해 주세요.',
    expired_card: '유효기간이 지난 카드입니다. 다른 카드로 다시 시도해 주세요.',
    processing_error: '카드 처리 중 오류가 발생했습니다. 잠시 후 다시 시도해 주세요.',
    authentication_required: '이 카드는 본인 인증이 필요하지만 이 결제에서는 인증을 진행할 수 없습니다. 다른 카드로 다시 시도해 주세요.',
    invalid_number: '카드 번호가 올바르지 않습니다. 다른 카드로 다시 시도해 주세요.',
    authentication_failed: '카드사 인증에 실패했습니다. 다시 시도하거나 다른 카드를 이용해 주세요.',
    authentication_abandoned: '카드사 인증이 완료되지 않았습니다. 다시 시도하실 수 있습니다.',
  },
};
