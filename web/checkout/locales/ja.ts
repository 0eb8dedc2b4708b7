import type { Messages } from '.';

// です・ます with honorific お支払い/ご利用, as Japanese shops and card companies write. The 3-D Secure
// challenge comes from the card issuer, so "bank" is カード会社; a hold is ご利用枠の確保; a charge is 請求.
export const ja: Messages = {
  loading: 'お支払い画面を読み込み中…',
  processing: 'お支払いを処理しています…',
  confirming: 'お支払いを確認しています。このページを開いたままお待ちください。二重に請求されることはありません。',
  paid: 'お支払いが完了しました。ご購入ありがとうございました。',
  unavailable: 'このデバイスまたはブラウザでは Google Pay をご利用いただけません。別のお支払い方法をお選びください。',
  declined: 'カードが承認されませんでした。別のカードでもう一度お試しください。',
  retry: 'もう一度試す',
  authorized: 'お支払いが承認されました。ご注文の商品の発送時に、ショップからカードへ請求されます。',
  captured: 'お支払いが完了しました。ショップがカードへの請求を確定しました。',
  released: 'ショップがこのお支払いを取り消し、カードのご利用枠の確保を解除しました。代金は請求されません。',
  authenticating: 'お手続きを続けるには、カード会社の画面でお支払いを確認してください。',
  reviewOrder: 'ご注文の金額を確認できませんでした。代金は請求されていません。ご注文内容をご確認のうえ、もう一度お試しください。',
  challenge: { title: 'お支払いの確認', frame: 'カード会社による本人認証（3-D Secure）', cancel: 'キャンセル' },
  errors: {
    invalid_client_secret: 'このお支払い画面は正しく設定されていません。ショップにお問い合わせください。',
    session_unauthorized: 'このお支払いを確認できませんでした。ページを再読み込みするか、ショップに戻って最初からやり直してください。',
    origin_not_allowed: 'このお支払い画面は、このウェブサイト向けに設定されていません。ショップにお問い合わせください。',
    session_not_found: 'このお支払いが見つかりませんでした。有効期限が切れた可能性があります。ショップに戻って最初からやり直してください。',
    session_expired: 'このお支払いは有効期限が切れました。代金は請求されていません。ショップに戻って最初からやり直してください。',
    network_error: '決済サーバーに接続できませんでした。通信環境をご確認のうえ、もう一度お試しください。',
    server_error: '申し訳ございません。システムエラーが発生しました。もう一度お試しください。',
    store_unavailable: 'お支払い機能が一時的にご利用いただけません。数秒後にもう一度お試しください。二重に請求されることはありません。',
    wallet_unavailable: 'Google Pay を読み込めませんでした。もう一度お試しください。',
    wallet_error: 'Google Pay でお支払いを完了できませんでした。もう一度お試しください。',
    payment_failed: 'お支払いを完了できませんでした。代金は請求されていません。もう一度お試しください。',
    payment_not_completed: 'お支払いは完了していません。代金は請求されていませんので、もう一度お試しいただけます。',
    challenge_blocked: 'カード会社の本人認証をこのページに表示できませんでした。代金は請求されていません。別のカードまたは別のお支払い方法をお試しください。',
  },
  saving: {
    agreements: {
      'saved_card.recurring.v1': '{merchant} が、{what} の代金として、毎回確認することなく、このカードに {period} {amount} を請求することを許可します。{merchant} で解約するまで有効です。',
      'saved_card.unscheduled.v1': '{merchant} がこのカードを保存し、{what} についてお支払いいただく金額（購入後に発生する料金を含む）を毎回確認することなく請求することを許可します。{merchant} に削除を依頼するまで有効です。',
      'saved_card.reload.v1': '{what} の残高が {threshold} を下回るたびに、{merchant} が毎回確認することなく、このカードに {amount} を請求することを許可します。{merchant} で解約するまで有効です。',
    },
    subjects: { recurring: 'ご利用中のサブスクリプション', unscheduled: 'ご購入品', reload: 'アカウント' },
    periods: { day: '毎日', week: '毎週', month: '毎月', year: '毎年', many: '{count}ごとに' },
    nothingToday: '本日の請求はありません。',
  },
  declines: {
    card_declined: 'カードが承認されませんでした。別のカードでもう一度お試しください。',
    insufficient_funds: 'このカードのご利用可能額が不足しています。別のカードでもう一度お試しください。',
    expired_card: 'このカードは有効期限が切れています。別のカードでもう一度お試しください。',
    processing_error: 'カードの処理中にエラーが発生しました。しばらくしてからもう一度お試しください。',
    authentication_required: 'このカードには本人認証が必要ですが、このお支払いでは認証を行えません。別のカードでもう一度お試しください。',
    invalid_number: 'カード番号が正しくありません。別のカードでもう一度お試しください。',
    authentication_failed: 'カード会社でお支払いを確認できませんでした。もう一度お試しいただくか、別のカードをご利用ください。',
    authentication_abandoned: 'カード会社での本人認証が完了しませんでした。もう一度お試しいただけます。',
  },
};
