/*
 * The sandbox demo checkout (GET /demo/checkout).
 *
 * It plays a seller's checkout page: it asks the demo seller's server
 * (/demo/...) to create and confirm payment intents, and for cards mounts the
 * vault's hosted fields (SvcVault, loaded from {vaultUrl}/sdk.js) so the card
 * number is typed in the vault's iframe and only a single-use token comes
 * back here. Pix and boleto are confirmed at creation; the buyer's payment is
 * simulated with the sandbox pay route.
 *
 * No inline code or style (the page's CSP forbids both), no dependencies.
 */
(function () {
  'use strict';

  var DEFAULT_AMOUNT_CENTS = 15990;
  var MAX_AMOUNT_CENTS = 99999999;
  var BOLETO_MIN_CENTS = 500;

  var TEST_CARDS = [
    { number: '4111 1111 1111 1111', outcome: 'approved' },
    { number: '4111 1131 1111 0002', outcome: 'insufficient' },
    { number: '4111 1131 1111 0069', outcome: 'expired' },
    { number: '4111 1131 1111 0119', outcome: 'silent' }
  ];

  var TEXT = {
    'pt-BR': {
      title: 'Checkout de demonstração',
      intro: 'Pague o pedido abaixo como um comprador faria. Tudo roda no sandbox: use os cartões de teste ou simule o pagamento do Pix e do boleto.',
      sandboxBadge: 'Sandbox: nenhum dinheiro é movimentado',
      amountLabel: 'Valor do pedido (R$)',
      amountHelp: 'De R$ 0,01 a R$ 999.999,99 (boleto: a partir de R$ 5,00).',
      amountInvalid: 'Informe um valor entre R$ 0,01 e R$ 999.999,99, por exemplo 159,90.',
      amountBoletoMin: 'O boleto exige pelo menos R$ 5,00.',
      buyerLabel: 'Comprador (fixo na demonstração)',
      payTitle: 'Forma de pagamento',
      tabCard: 'Cartão',
      tabBoleto: 'Boleto',
      installmentsLabel: 'Parcelas',
      installmentOne: '1x (à vista)',
      installmentN: '{n}x de {each}',
      cardBegin: 'Informar dados do cartão',
      cardFrameNote: 'Os campos abaixo são servidos pelo cofre de cartões: o número do cartão não passa por esta página nem pelo servidor da loja.',
      cardLoading: 'Carregando campos seguros…',
      cardPay: 'Pagar {amount}',
      cardPayInstallments: 'Pagar {amount} em {n}x',
      cancel: 'Cancelar',
      testCardsTitle: 'Cartões de teste do sandbox',
      testCardsNote: 'Qualquer validade futura, CVV 123 e qualquer nome.',
      outcome_approved: 'aprovado',
      outcome_insufficient: 'recusado: saldo insuficiente',
      outcome_expired: 'recusado: cartão vencido',
      outcome_silent: 'adquirente não responde (erro 502)',
      pixIntro: 'Gere um QR Code Pix para o valor do pedido. No sandbox, simule o pagamento do comprador com um clique.',
      pixBegin: 'Gerar QR Code Pix',
      pixCodeLabel: 'Pix copia e cola',
      pixExpires: 'Válido até',
      boletoIntro: 'Gere um boleto para o valor do pedido (mínimo R$ 5,00), com vencimento em 3 dias.',
      boletoBegin: 'Gerar boleto',
      boletoLineLabel: 'Linha digitável',
      boletoDue: 'Vencimento',
      copy: 'Copiar',
      copied: 'Copiado!',
      simulate: 'Simular pagamento',
      simulateNote: 'Faz o papel do banco do comprador: marca a transação como paga (rota de sandbox).',
      retry: 'Tentar novamente',
      creating: 'Criando a cobrança…',
      processing: 'Processando o pagamento…',
      paying: 'Simulando o pagamento…',
      waiting: 'Aguardando o pagamento do comprador.',
      paidTitle: 'Pagamento aprovado',
      paidText: 'A transação foi paga. Os recebíveis abaixo mostram quanto cada conta recebe e quando.',
      failedTitle: 'Pagamento recusado',
      refusal_insufficient_funds: 'O banco emissor recusou o pagamento: saldo insuficiente.',
      refusal_expired_card: 'O banco emissor recusou o pagamento: cartão vencido.',
      canceledTitle: 'Pagamento cancelado',
      canceledText: 'A cobrança foi cancelada (prazo de pagamento encerrado).',
      factTransaction: 'Transação',
      factMethod: 'Forma',
      factAmount: 'Valor',
      factFee: 'Tarifa',
      factNet: 'Líquido',
      receivablesTitle: 'Recebíveis',
      colRecipient: 'Recebedor',
      colInstallment: 'Parcela',
      colAmount: 'Valor',
      colExpected: 'Previsto para',
      colStatus: 'Situação',
      roleSeller: 'vendedor',
      roleRecipient: 'recebedor',
      statusPending: 'a receber',
      statusPaid: 'recebido',
      methodCard: 'Cartão de crédito',
      methodPix: 'Pix',
      methodBoleto: 'Boleto',
      newOrder: 'Nova compra',
      network: 'Não foi possível falar com o servidor da loja. Ele está rodando?',
      sdkUnavailable: 'Não foi possível carregar o script do cofre em {url}. O cofre está rodando (VAULT_PORT / PUBLIC_VAULT_URL)?',
      noDemo: 'A demonstração não está disponível nesta instalação.',
      footer: 'Esta página faz o papel do site da loja: o servidor da loja cria a intenção de pagamento e a confirma com o token do cofre. Veja a referência da API em /docs.',
      langToggle: 'English'
    },
    en: {
      title: 'Demo checkout',
      intro: 'Pay the order below as a buyer would. Everything runs in the sandbox: use the test cards or simulate the Pix and boleto payment.',
      sandboxBadge: 'Sandbox: no money moves',
      amountLabel: 'Order amount (R$)',
      amountHelp: 'From R$ 0.01 to R$ 999,999.99 (boleto: from R$ 5.00).',
      amountInvalid: 'Enter an amount between R$ 0.01 and R$ 999,999.99, for example 159.90.',
      amountBoletoMin: 'A boleto needs at least R$ 5.00.',
      buyerLabel: 'Buyer (fixed in the demo)',
      payTitle: 'Payment method',
      tabCard: 'Card',
      tabBoleto: 'Boleto',
      installmentsLabel: 'Installments',
      installmentOne: '1x (single payment)',
      installmentN: '{n}x of {each}',
      cardBegin: 'Enter card details',
      cardFrameNote: 'The fields below are served by the card vault: the card number never goes through this page or the shop\'s server.',
      cardLoading: 'Loading secure fields…',
      cardPay: 'Pay {amount}',
      cardPayInstallments: 'Pay {amount} in {n} installments',
      cancel: 'Cancel',
      testCardsTitle: 'Sandbox test cards',
      testCardsNote: 'Any future expiry, CVV 123 and any name.',
      outcome_approved: 'approved',
      outcome_insufficient: 'refused: insufficient funds',
      outcome_expired: 'refused: expired card',
      outcome_silent: 'acquirer silent (502 error)',
      pixIntro: 'Create a Pix QR code for the order amount. In the sandbox, simulate the buyer\'s payment with one click.',
      pixBegin: 'Create Pix QR code',
      pixCodeLabel: 'Pix copy and paste',
      pixExpires: 'Valid until',
      boletoIntro: 'Create a boleto for the order amount (at least R$ 5.00), due in 3 days.',
      boletoBegin: 'Create boleto',
      boletoLineLabel: 'Digitable line',
      boletoDue: 'Due date',
      copy: 'Copy',
      copied: 'Copied!',
      simulate: 'Simulate payment',
      simulateNote: 'Plays the buyer\'s bank: marks the transaction paid (sandbox route).',
      retry: 'Try again',
      creating: 'Creating the charge…',
      processing: 'Processing the payment…',
      paying: 'Simulating the payment…',
      waiting: 'Waiting for the buyer\'s payment.',
      paidTitle: 'Payment approved',
      paidText: 'The transaction is paid. The receivables below show what each account receives, and when.',
      failedTitle: 'Payment refused',
      canceledTitle: 'Payment canceled',
      canceledText: 'The charge was canceled (its payment window closed).',
      factTransaction: 'Transaction',
      factMethod: 'Method',
      factAmount: 'Amount',
      factFee: 'Fee',
      factNet: 'Net',
      receivablesTitle: 'Receivables',
      colRecipient: 'Recipient',
      colInstallment: 'Installment',
      colAmount: 'Amount',
      colExpected: 'Expected on',
      colStatus: 'Status',
      roleSeller: 'seller',
      roleRecipient: 'recipient',
      statusPending: 'to receive',
      statusPaid: 'received',
      methodCard: 'Credit card',
      methodPix: 'Pix',
      methodBoleto: 'Boleto',
      newOrder: 'New order',
      network: 'Could not reach the shop\'s server. Is it running?',
      sdkUnavailable: 'Could not load the vault script from {url}. Is the vault running (VAULT_PORT / PUBLIC_VAULT_URL)?',
      noDemo: 'The demo is not available on this deployment.',
      footer: 'This page plays the shop\'s website: the shop\'s server creates the payment intent and confirms it with the vault token. See the API reference at /docs.',
      langToggle: 'Português'
    }
  };

  var METHODS = ['CREDIT_CARD', 'PIX', 'BOLETO'];

  var state = {
    locale: 'pt-BR',
    config: null, // {vaultUrl, companyName}
    method: 'CREDIT_CARD',
    busy: false,
    intent: null,
    transaction: null,
    handle: null, // SvcVault mount handle
    sdk: null // Promise of window.SvcVault
  };

  function $(id) {
    return document.getElementById(id);
  }

  function t(key, vars) {
    var s = TEXT[state.locale][key];
    if (s === undefined) s = TEXT['pt-BR'][key] || key;
    if (vars) {
      s = s.replace(/\{(\w+)\}/g, function (m, name) {
        return vars[name] !== undefined ? String(vars[name]) : m;
      });
    }
    return s;
  }

  function show(el, visible) {
    if (typeof el === 'string') el = $(el);
    el.hidden = !visible;
  }

  function clear(el) {
    while (el.firstChild) el.removeChild(el.firstChild);
  }

  function node(tag, text, className) {
    var el = document.createElement(tag);
    if (text !== undefined && text !== null) el.textContent = text;
    if (className) el.className = className;
    return el;
  }

  // ------------------------------------------------------------------
  // Formatting
  // ------------------------------------------------------------------

  function money(cents) {
    return new Intl.NumberFormat(state.locale === 'en' ? 'en-US' : 'pt-BR', { style: 'currency', currency: 'BRL' }).format(cents / 100);
  }

  /** "159,90", "1.234,56", "159.90", "R$ 10" → centavos; undefined when not an amount. */
  function parseAmount(text) {
    var s = String(text).replace(/R\$|\s/g, '');
    if (!s) return undefined;
    if (s.indexOf(',') >= 0) s = s.replace(/\./g, '').replace(',', '.');
    else if (/^\d{1,3}(\.\d{3})+$/.test(s)) s = s.replace(/\./g, ''); // 1.000 = one thousand
    if (!/^\d+(\.\d{1,2})?$/.test(s)) return undefined;
    var parts = s.split('.');
    var cents = Number(parts[0]) * 100 + Number(((parts[1] || '') + '00').slice(0, 2));
    return Number.isSafeInteger(cents) && cents >= 1 && cents <= MAX_AMOUNT_CENTS ? cents : undefined;
  }

  function formatInputAmount(cents) {
    return (cents / 100).toFixed(2).replace('.', state.locale === 'en' ? '.' : ',');
  }

  /** YYYY-MM-DD → 21/11/2026 (pt-BR) or Nov 21, 2026 (en). */
  function date(iso) {
    var d = new Date(iso.length === 10 ? iso + 'T12:00:00Z' : iso);
    if (isNaN(d.getTime())) return iso;
    var opts = iso.length === 10
      ? { timeZone: 'UTC', day: '2-digit', month: '2-digit', year: 'numeric' }
      : { timeZone: 'America/Sao_Paulo', day: '2-digit', month: '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit' };
    return d.toLocaleString(state.locale === 'en' ? 'en-GB' : 'pt-BR', opts);
  }

  /** 47 digits → 00190.00009 01234.567891 23456.789012 3 12340000015990 */
  function digitableLine(line) {
    var d = String(line).replace(/\D/g, '');
    if (d.length !== 47) return line;
    return d.slice(0, 5) + '.' + d.slice(5, 10) + ' ' + d.slice(10, 15) + '.' + d.slice(15, 21) + ' ' +
      d.slice(21, 26) + '.' + d.slice(26, 32) + ' ' + d.slice(32, 33) + ' ' + d.slice(33);
  }

  function taxId(doc) {
    if (/^\d{11}$/.test(doc)) return doc.replace(/^(\d{3})(\d{3})(\d{3})(\d{2})$/, '$1.$2.$3-$4');
    if (/^\d{14}$/.test(doc)) return doc.replace(/^(\d{2})(\d{3})(\d{3})(\d{4})(\d{2})$/, '$1.$2.$3/$4-$5');
    return doc;
  }

  function methodName(method) {
    return method === 'PIX' ? t('methodPix') : method === 'BOLETO' ? t('methodBoleto') : t('methodCard');
  }

  // ------------------------------------------------------------------
  // The demo seller's server
  // ------------------------------------------------------------------

  function api(method, path, body) {
    var init = { method: method, headers: { accept: 'application/json' }, credentials: 'same-origin' };
    if (body !== undefined) {
      init.headers['content-type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    return fetch(path, init).then(
      function (res) {
        return res.text().then(function (text) {
          var data = null;
          try {
            data = text ? JSON.parse(text) : null;
          } catch (e) {
            data = null;
          }
          if (res.ok) return data;
          var err = new Error((data && data.message) || 'HTTP ' + res.status);
          err.code = (data && data.code) || 'HTTP_' + res.status;
          err.details = (data && data.details) || null;
          err.status = res.status;
          throw err;
        });
      },
      function () {
        var err = new Error(t('network'));
        err.code = 'NETWORK_ERROR';
        throw err;
      }
    );
  }

  /** Loads {vaultUrl}/sdk.js once, with a script element (allowed by the page's script-src). */
  function loadSdk() {
    if (window.SvcVault) return Promise.resolve(window.SvcVault);
    if (state.sdk) return state.sdk;
    var url = state.config.vaultUrl.replace(/\/+$/, '') + '/sdk.js';
    state.sdk = new Promise(function (resolve, reject) {
      var script = document.createElement('script');
      script.src = url;
      script.async = true;
      script.onload = function () {
        if (window.SvcVault) resolve(window.SvcVault);
        else script.onerror();
      };
      script.onerror = function () {
        state.sdk = null;
        if (script.parentNode) script.parentNode.removeChild(script);
        var err = new Error(t('sdkUnavailable', { url: url }));
        err.code = 'SDK_UNAVAILABLE';
        reject(err);
      };
      document.head.appendChild(script);
    });
    return state.sdk;
  }

  // ------------------------------------------------------------------
  // Status and errors
  // ------------------------------------------------------------------

  function setStatus(text) {
    var el = $('status');
    el.textContent = text || '';
    show(el, !!text);
  }

  function clearError() {
    show('error', false);
    show('error-retry', false);
  }

  /** Shows err.code and err.message (an API error body, or an SvcVault onError error). */
  function showError(err, canRetry) {
    setStatus('');
    $('error-code').textContent = err && err.code ? err.code : 'ERROR';
    $('error-message').textContent = err && err.message ? err.message : String(err);
    var list = $('error-details');
    clear(list);
    var details = (err && err.details) || [];
    for (var i = 0; i < details.length; i++) {
      list.appendChild(node('li', details[i].field + ': ' + details[i].message));
    }
    show(list, details.length > 0);
    show('error-retry', !!canRetry);
    show('error', true);
  }

  function setBusy(busy) {
    state.busy = busy;
    var buttons = document.querySelectorAll('button.primary, button.simulate-pay');
    for (var i = 0; i < buttons.length; i++) buttons[i].disabled = busy;
  }

  /** The amount and method cannot change once a charge exists for them. */
  function lockOrder(locked) {
    $('amount').disabled = locked;
    $('installments').disabled = locked;
    var tabs = document.querySelectorAll('[role=tab]');
    for (var i = 0; i < tabs.length; i++) {
      if (tabs[i].getAttribute('aria-selected') !== 'true') tabs[i].disabled = locked;
    }
  }

  function amountCents() {
    var cents = parseAmount($('amount').value);
    var error = cents === undefined ? t('amountInvalid') : state.method === 'BOLETO' && cents < BOLETO_MIN_CENTS ? t('amountBoletoMin') : '';
    $('amount-error').textContent = error;
    show('amount-error', !!error);
    $('amount').setAttribute('aria-invalid', error ? 'true' : 'false');
    if (error) {
      $('amount').focus();
      return undefined;
    }
    return cents;
  }

  // ------------------------------------------------------------------
  // Flows
  // ------------------------------------------------------------------

  function createIntent(extra) {
    var cents = amountCents();
    if (cents === undefined) return Promise.reject(null);
    clearError();
    setBusy(true);
    setStatus(t('creating'));
    var body = { paymentMethod: state.method, amountCents: cents };
    for (var k in extra) if (Object.prototype.hasOwnProperty.call(extra, k)) body[k] = extra[k];
    return api('POST', '/demo/intents', body).then(function (intent) {
      state.intent = intent;
      lockOrder(true);
      setBusy(false);
      setStatus('');
      return intent;
    }, function (err) {
      setBusy(false);
      throw err;
    });
  }

  function unmountCard() {
    if (state.handle) {
      try {
        state.handle.unmount();
      } catch (e) {
        /* already gone */
      }
      state.handle = null;
    }
    clear($('card-fields'));
  }

  function beginCard() {
    var installments = Number($('installments').value) || 1;
    createIntent({ installments: installments })
      .then(function (intent) {
        return loadSdk().then(function (SvcVault) {
          return { intent: intent, SvcVault: SvcVault };
        });
      })
      .then(function (r) {
        var tk = r.intent.cardTokenization;
        show('card-start', false);
        show('card-form', true);
        show('card-loading', true);
        renderPayButton();
        $('card-pay').disabled = true;
        unmountCard();
        state.handle = r.SvcVault.mount($('card-fields'), {
          vaultUrl: tk.vaultUrl,
          ticket: tk.ticket,
          encryptionKey: tk.encryptionKey,
          locale: state.locale === 'en' ? 'en' : 'pt-BR',
          // The page's own "Pagar R$ …" button submits, through handle.tokenize().
          hideSubmitButton: true,
          style: { accentColor: '#0f766e', color: '#17212b', borderColor: '#c4ccd3', borderRadius: '8px', errorColor: '#b42318' },
          onReady: function () {
            show('card-loading', false);
            $('card-pay').disabled = false;
            if (state.handle) state.handle.focus();
          },
          onChange: function () {
            if (!$('error').hidden && $('error-retry').hidden) clearError();
          },
          onToken: function (result) {
            confirmCard(r.intent, result);
          },
          onError: function (err) {
            setBusy(false);
            $('card-pay').disabled = false;
            // Field errors can be fixed in place; an expired ticket or a vault failure needs a new intent.
            showError(err, err.code === 'TICKET_EXPIRED' || err.code === 'PROVIDER_ERROR' || err.code === 'RATE_LIMITED');
          }
        });
      })
      .catch(function (err) {
        if (err) showError(err, state.intent !== null);
      });
  }

  function renderPayButton() {
    var intent = state.intent;
    if (!intent || intent.paymentMethod !== 'CREDIT_CARD') return;
    var amount = money(intent.amountCents);
    $('card-pay').textContent = intent.installments > 1 ? t('cardPayInstallments', { amount: amount, n: intent.installments }) : t('cardPay', { amount: amount });
  }

  /** The page's pay button: the frame validates, encrypts and tokenizes; onToken / onError follow. */
  function submitCard() {
    if (!state.handle || state.busy) return;
    clearError();
    setBusy(true);
    state.handle.tokenize().catch(function () {
      /* reported through onError */
    });
  }

  function confirmCard(intent, result) {
    clearError();
    setBusy(true);
    setStatus(t('processing') + ' (' + result.brand + ' •••• ' + result.last4 + ')');
    api('POST', '/demo/intents/' + encodeURIComponent(intent.id) + '/confirm', { token: result.token })
      .then(function (transaction) {
        setBusy(false);
        setStatus('');
        unmountCard();
        show('card-form', false);
        showResult(transaction);
      })
      .catch(function (err) {
        setBusy(false);
        // The token is spent or the intent failed (e.g. 502 PROVIDER_ERROR): start again with a new intent.
        $('card-pay').disabled = true;
        showError(err, true);
      });
  }

  function beginPix() {
    createIntent({})
      .then(function (intent) {
        var trx = intent.transaction;
        state.transaction = trx;
        var pix = trx.paymentDetails.pix;
        $('pix-qr').src = 'data:image/png;base64,' + pix.qrCodeImageBase64;
        $('pix-code').value = pix.qrCode;
        $('pix-expires').textContent = date(pix.expiresAt);
        show('pix-start', false);
        show('pix-charge', true);
        setStatus(t('waiting'));
      })
      .catch(function (err) {
        if (err) showError(err, state.intent !== null);
      });
  }

  function beginBoleto() {
    createIntent({})
      .then(function (intent) {
        var trx = intent.transaction;
        state.transaction = trx;
        var boleto = trx.paymentDetails.boleto;
        $('boleto-line').value = digitableLine(boleto.digitableLine);
        $('boleto-due').textContent = date(boleto.dueDate);
        show('boleto-start', false);
        show('boleto-charge', true);
        setStatus(t('waiting'));
      })
      .catch(function (err) {
        if (err) showError(err, state.intent !== null);
      });
  }

  function simulatePayment() {
    if (!state.transaction || state.busy) return;
    clearError();
    setBusy(true);
    setStatus(t('paying'));
    api('POST', '/demo/transactions/' + encodeURIComponent(state.transaction.id) + '/pay')
      .then(function (transaction) {
        setBusy(false);
        setStatus('');
        show(state.method === 'PIX' ? 'pix-charge' : 'boleto-charge', false);
        showResult(transaction);
      })
      .catch(function (err) {
        setBusy(false);
        showError(err, true);
      });
  }

  // ------------------------------------------------------------------
  // Result
  // ------------------------------------------------------------------

  function showResult(trx) {
    state.transaction = trx;
    var result = $('result');
    result.classList.remove('paid', 'failed');
    var card = trx.paymentDetails && trx.paymentDetails.card;
    var refusal = false;
    if (trx.status === 'PAID') {
      result.classList.add('paid');
      $('result-title').textContent = t('paidTitle');
      $('result-text').textContent = t('paidText');
    } else if (trx.status === 'FAILED') {
      result.classList.add('failed');
      $('result-title').textContent = t('failedTitle');
      var code = card && card.refusalCode;
      $('result-text').textContent = (code && TEXT[state.locale]['refusal_' + code]) || (card && card.refusalMessage) || '';
      if (card && card.refusalMessage) {
        $('result-refusal').textContent = 'refusalCode ' + code + ': ' + card.refusalMessage;
        refusal = true;
      }
    } else {
      result.classList.add('failed');
      $('result-title').textContent = t('canceledTitle');
      $('result-text').textContent = t('canceledText');
    }
    show('result-refusal', refusal);
    $('result-id').textContent = trx.id;
    var method = methodName(trx.paymentMethod);
    if (card && card.last4) method += ' · ' + card.brand + ' •••• ' + card.last4;
    if (trx.paymentMethod === 'CREDIT_CARD') method += ' · ' + trx.installments + 'x';
    $('result-method').textContent = method;
    $('result-amount').textContent = money(trx.amountCents);
    $('result-fee').textContent = money(trx.feeCents);
    $('result-net').textContent = money(trx.netAmountCents);

    var rows = (trx.split && trx.split.receivables) || [];
    var body = $('receivables-body');
    clear(body);
    for (var i = 0; i < rows.length; i++) {
      var r = rows[i];
      var tr = document.createElement('tr');
      var who = node('td', taxId(r.recipientDocument), 'recipient');
      who.appendChild(node('span', r.role === 'SELLER' ? t('roleSeller') : t('roleRecipient'), 'role'));
      tr.appendChild(who);
      tr.appendChild(node('td', String(r.installment)));
      tr.appendChild(node('td', money(r.amountCents), 'num'));
      tr.appendChild(node('td', date(r.expectedOn)));
      tr.appendChild(node('td', r.status === 'PAID' ? t('statusPaid') : t('statusPending')));
      body.appendChild(tr);
    }
    show('receivables', rows.length > 0);
    show('result', true);
    $('result-title').focus();
  }

  // ------------------------------------------------------------------
  // Page state
  // ------------------------------------------------------------------

  function reset() {
    unmountCard();
    state.intent = null;
    state.transaction = null;
    setBusy(false);
    lockOrder(false);
    clearError();
    setStatus('');
    show('result', false);
    show('card-start', true);
    show('card-form', false);
    show('pix-start', true);
    show('pix-charge', false);
    show('boleto-start', true);
    show('boleto-charge', false);
  }

  function selectMethod(method) {
    if (METHODS.indexOf(method) < 0 || state.intent) return;
    state.method = method;
    for (var i = 0; i < METHODS.length; i++) {
      var m = METHODS[i];
      var tab = $('tab-' + m);
      var on = m === method;
      tab.setAttribute('aria-selected', on ? 'true' : 'false');
      tab.tabIndex = on ? 0 : -1;
      show('panel-' + m, on);
    }
    clearError();
    show('amount-error', false);
  }

  function renderInstallments() {
    var select = $('installments');
    var current = Number(select.value) || 1;
    var cents = parseAmount($('amount').value) || DEFAULT_AMOUNT_CENTS;
    clear(select);
    for (var n = 1; n <= 12; n++) {
      var label = n === 1 ? t('installmentOne') : t('installmentN', { n: n, each: money(Math.floor(cents / n)) });
      var opt = node('option', label);
      opt.value = String(n);
      if (n === current) opt.selected = true;
      select.appendChild(opt);
    }
  }

  function renderTestCards() {
    var list = $('test-cards');
    clear(list);
    for (var i = 0; i < TEST_CARDS.length; i++) {
      var c = TEST_CARDS[i];
      var li = node('li', null, 'test-card outcome-' + c.outcome);
      li.appendChild(node('code', c.number));
      li.appendChild(node('span', t('outcome_' + c.outcome), 'outcome'));
      var copy = node('button', t('copy'), 'link-button copy');
      copy.type = 'button';
      copy.setAttribute('data-copy-text', c.number.replace(/\s/g, ''));
      li.appendChild(copy);
      list.appendChild(li);
    }
  }

  function applyLocale(locale) {
    state.locale = locale === 'en' ? 'en' : 'pt-BR';
    document.documentElement.lang = state.locale;
    var nodes = document.querySelectorAll('[data-i18n]');
    for (var i = 0; i < nodes.length; i++) nodes[i].textContent = t(nodes[i].getAttribute('data-i18n'));
    var toggle = $('lang-toggle');
    toggle.textContent = t('langToggle');
    toggle.lang = state.locale === 'en' ? 'pt-BR' : 'en';
    document.title = t('title') + ' · Sandbox';
    var cents = parseAmount($('amount').value);
    if (cents !== undefined && !$('amount').disabled) $('amount').value = formatInputAmount(cents);
    renderInstallments();
    renderTestCards();
    renderPayButton();
    if (state.transaction && !$('result').hidden) showResult(state.transaction);
    try {
      window.localStorage.setItem('svc-demo-locale', state.locale);
    } catch (e) {
      /* storage unavailable */
    }
  }

  function copyText(text, button) {
    var done = function () {
      var label = button.textContent;
      button.textContent = t('copied');
      setTimeout(function () {
        button.textContent = label;
      }, 1500);
    };
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(text).then(done, function () {});
    }
  }

  function onTabKey(ev) {
    var i = METHODS.indexOf(state.method);
    var next = ev.key === 'ArrowRight' ? i + 1 : ev.key === 'ArrowLeft' ? i - 1 : null;
    if (next === null || state.intent) return;
    var method = METHODS[(next + METHODS.length) % METHODS.length];
    selectMethod(method);
    $('tab-' + method).focus();
    ev.preventDefault();
  }

  function init() {
    var saved = null;
    try {
      saved = window.localStorage.getItem('svc-demo-locale');
    } catch (e) {
      saved = null;
    }
    applyLocale(saved || 'pt-BR'); // Portuguese first; English only when chosen

    var tabs = document.querySelectorAll('[role=tab]');
    for (var i = 0; i < tabs.length; i++) {
      tabs[i].addEventListener('click', function (ev) {
        selectMethod(ev.currentTarget.getAttribute('data-method'));
      });
      tabs[i].addEventListener('keydown', onTabKey);
    }
    $('lang-toggle').addEventListener('click', function () {
      applyLocale(state.locale === 'en' ? 'pt-BR' : 'en');
    });
    $('amount').addEventListener('input', function () {
      show('amount-error', false);
      renderInstallments();
    });
    $('amount').addEventListener('blur', function () {
      var cents = parseAmount($('amount').value);
      if (cents !== undefined) $('amount').value = formatInputAmount(cents);
    });
    $('card-begin').addEventListener('click', beginCard);
    $('pix-begin').addEventListener('click', beginPix);
    $('boleto-begin').addEventListener('click', beginBoleto);
    $('card-pay').addEventListener('click', submitCard);
    $('card-cancel').addEventListener('click', reset);
    $('new-order').addEventListener('click', reset);
    $('error-retry').addEventListener('click', function () {
      var method = state.method;
      reset();
      if (method === 'CREDIT_CARD') beginCard();
    });
    var sims = document.querySelectorAll('.simulate-pay');
    for (var s = 0; s < sims.length; s++) sims[s].addEventListener('click', simulatePayment);
    document.addEventListener('click', function (ev) {
      var target = ev.target;
      if (!(target instanceof HTMLElement) || !target.classList.contains('copy')) return;
      var from = target.getAttribute('data-copy-from');
      var text = from ? $(from).value : target.getAttribute('data-copy-text');
      if (from && $(from).select) $(from).select();
      if (text) copyText(text, target);
    });
    $('result-title').tabIndex = -1;

    setBusy(true); // until the configuration (the vault's URL) is known
    api('GET', '/demo/config').then(
      function (config) {
        state.config = config;
        setBusy(false);
        $('company-name').textContent = config.companyName;
      },
      function (err) {
        setBusy(true);
        showError(err.code === 'NOT_FOUND' ? { code: err.code, message: t('noDemo') + ' ' + err.message } : err, false);
      }
    );
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', init);
  else init();
})();
