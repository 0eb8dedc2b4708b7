import type { Messages } from '.';

// 您, as Taiwan's banks and shops address customers; Taiwan vocabulary (卡片, 裝置, 重新整理, 身分) and full-width
// punctuation. A capture is 請款 (the card-acquiring term in Taiwan), a hold 預先授權, the store 商店.
export const zhHant: Messages = {
  loading: '正在載入付款頁面…',
  processing: '正在處理您的付款…',
  confirming: '正在確認您的付款，請勿關閉此頁面。您不會被重複扣款。',
  paid: '付款完成，感謝您的購買！',
  unavailable: '這個裝置或瀏覽器無法使用 Google Pay。請選擇其他付款方式。',
  declined: '您的卡片遭到拒絕，請改用其他卡片再試一次。',
  retry: '再試一次',
  authorized: '付款已授權。商店會在訂單出貨時向您的卡片請款。',
  captured: '付款完成。商店已向您的卡片請款。',
  released: '商店已取消這筆付款，並解除您卡片上的預先授權，不會向您扣款。',
  authenticating: '請完成銀行驗證以繼續付款。',
  reviewOrder: '無法確認您訂單的金額，未產生任何扣款。請檢查您的訂單後再試一次。',
  challenge: { title: '確認付款', frame: '銀行身分驗證（3-D Secure）', cancel: '取消' },
  errors: {
    invalid_client_secret: '此付款頁面設定有誤，請與商店聯絡。',
    session_unauthorized: '無法驗證這筆付款。請重新整理頁面，或返回商店重新開始。',
    origin_not_allowed: '此付款頁面未針對這個網站設定，請與商店聯絡。',
    session_not_found: '找不到這筆付款，可能已經失效。請返回商店重新開始。',
    session_expired: '這筆付款已失效，未產生任何扣款。請返回商店重新開始。',
    network_error: '無法連線至付款伺服器。請檢查網路連線後再試一次。',
    server_error: '系統發生錯誤，請再試一次。',
    store_unavailable: '付款服務暫時無法使用，請過幾秒後再試一次。您不會被重複扣款。',
    wallet_unavailable: '無法載入 Google Pay，請再試一次。',
    wallet_error: 'Google Pay 無法完成付款，請再試一次。',
    payment_failed: '付款未能完成，未產生任何扣款。請再試一次。',
    payment_not_completed: '您的付款尚未完成，未產生任何扣款。您可以再試一次。',
    challenge_blocked: '無法在此頁面顯示銀行驗證，未產生任何扣款。請改用其他卡片或付款方式。',
  },
  saving: {
    agreements: {
      'saved_card.recurring.v1': '您允許 {merchant} 為{what}{period}從此卡扣款 {amount}，無須每次詢問您，直到您向 {merchant} 取消為止。',
      'saved_card.unscheduled.v1': '您允許 {merchant} 保存此卡並從中扣款，無須每次詢問您，用於支付您就{what}所欠的款項（包括購買後產生的費用），直到您要求 {merchant} 移除此卡為止。',
      'saved_card.reload.v1': '您允許 {merchant} 在{what}餘額低於 {threshold} 時，每次從此卡扣款 {amount}，無須每次詢問您，直到您向 {merchant} 取消為止。',
    },
    subjects: { recurring: '您的訂閱', unscheduled: '您的購物', reload: '帳戶' },
    periods: { day: '每天', week: '每週', month: '每月', year: '每年', many: '每 {count}' },
    nothingToday: '今天不會扣款。',
  },
  declines: {
    card_declined: '您的卡片遭到拒絕，請改用其他卡片再試一次。',
    insufficient_funds: '此卡片餘額或額度不足，請改用其他卡片再試一次。',
    expired_card: '此卡片已過期，請改用其他卡片再試一次。',
    processing_error: '處理卡片時發生錯誤，請稍後再試一次。',
    authentication_required: '此卡片需要身分驗證，但這筆付款無法進行驗證。請改用其他卡片再試一次。',
    invalid_number: '卡號無效，請改用其他卡片再試一次。',
    authentication_failed: '銀行未確認這筆付款。請再試一次，或改用其他卡片。',
    authentication_abandoned: '銀行驗證未完成。您可以再試一次。',
  },
};
