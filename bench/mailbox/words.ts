// The words, names and phrases the synthetic mailbox is written with. English mail draws most words from
// one of ten topics, so a topic word ("invoice", "deploy") matches roughly a tenth of the corpus and a
// rare word far less, which is closer to real mail than feasibility §C's 100-word pool (70–85 % hits).
// Every other language has its own small pool; each one only uses characters its legacy charsets encode.

export type Lang = 'en' | 'de' | 'fr' | 'pl' | 'ru' | 'ja' | 'zh' | 'zhTW' | 'ko';

export const functionWords = (
  'the a an and or but to of in on for with at by from about as is are was were be been will would can ' +
  'could should we you i they it this that these our your my their there here if when so not all some any ' +
  'more just then than also have has had do does let us me them what which who how'
).split(' ');

export const generalWords = (
  'please thanks regards question answer attached document file version final update information details ' +
  'note request issue problem solution help support team company office week month year today next last ' +
  'time date plan idea change result list number item price cost total new old good great quick important ' +
  'urgent short long early late soon again still already maybe probably definitely sure fine okay agree ' +
  'discuss check send share follow reply forward meet talk decide finish start prepare organize remember ' +
  'forget wait need want know think hope feel work visit buy sell pay win open close read write morning ' +
  'evening lunch coffee weekend holiday summary overview draft comment feedback notes link website email ' +
  'phone message letter form template sheet spreadsheet folder printer copy original signed received ' +
  'sent pending completed ongoing available missing correct wrong clear simple difficult possible ' +
  'customer client partner colleague manager director assistant department board member group'
).split(' ');

export const topics: Record<string, { words: string[]; subjects: string[] }> = {
  finance: {
    words: (
      'invoice payment receipt refund budget balance account transfer tax expense statement overdue reminder ' +
      'billing quarterly revenue forecast audit ledger credit debit vat payroll reimbursement subscription ' +
      'renewal pricing discount quote purchase order vendor supplier accounting fiscal'
    ).split(' '),
    subjects: [
      'Invoice {n} for {month}',
      'Payment reminder: invoice {n}',
      'Receipt for your order #{n}',
      'Refund request {n}',
      'Budget review {quarter}',
      'Quarterly revenue forecast',
      'Expense report {month}',
      'Your subscription renewal',
      'Overdue balance on account {n}',
    ],
  },
  engineering: {
    words: (
      'deploy release build server database migration bug patch merge branch pipeline latency outage ' +
      'incident rollback cluster config configuration kubernetes container staging production monitoring ' +
      'dashboard api endpoint schema index cache performance regression test coverage refactor'
    ).split(' '),
    subjects: [
      'Release {n} deployed to staging',
      'Incident report: database latency',
      'Code review for branch {w}',
      'Build {n} failed',
      'Postmortem: production outage on {day}',
      'Migration plan for the {w} cluster',
      'Performance regression in {w}',
    ],
  },
  meetings: {
    words: (
      'meeting agenda conference call schedule calendar invite webinar workshop presentation slides minutes ' +
      'attendees room reschedule confirm confirmation availability tomorrow monday friday afternoon session ' +
      'keynote speaker venue registration summit offsite standup retrospective planning sync'
    ).split(' '),
    subjects: [
      'Meeting on {day} at {hour}',
      'Agenda for the {w} workshop',
      'Conference call: {w} planning',
      'Please confirm your registration',
      'Minutes from the budget meeting',
      'Invitation: quarterly planning session',
      'Reschedule our {day} sync?',
      'Conference {year} speaker confirmation',
    ],
  },
  travel: {
    words: (
      'flight hotel booking itinerary airport boarding passport visa luggage train taxi reservation ' +
      'departure arrival gate seat terminal rental trip journey destination upgrade lounge baggage ' +
      'connection delay cancellation shuttle'
    ).split(' '),
    subjects: [
      'Your flight itinerary {code}',
      'Hotel booking confirmation {n}',
      'Boarding pass for {day}',
      'Train reservation {code}',
      'Trip to {city}: travel details',
      'Flight delay notification',
    ],
  },
  shopping: {
    words: (
      'shipment tracking delivery package parcel courier warehouse dispatched delivered returns exchange ' +
      'warranty product cart checkout coupon sale offer newsletter deals bestseller catalog stock loyalty ' +
      'points voucher wishlist'
    ).split(' '),
    subjects: [
      'Your order {n} has shipped',
      'Shipment tracking number {code}',
      'Delivery scheduled for {day}',
      'Weekend sale: {pct}% off everything',
      'Your coupon expires soon',
      'New arrivals in the {w} catalog',
      'Return request {n} received',
    ],
  },
  hr: {
    words: (
      'interview candidate resume offer contract onboarding benefits vacation leave salary bonus promotion ' +
      'training policy handbook appraisal hiring recruiter position role referral pension insurance ' +
      'timesheet overtime'
    ).split(' '),
    subjects: [
      'Interview schedule for {name}',
      'Your offer letter',
      'Updated vacation policy',
      'Onboarding checklist for new hires',
      'Benefits enrollment closes {day}',
      'Referral bonus programme',
    ],
  },
  security: {
    words: (
      'password login security verification code reset suspicious activity device authentication token ' +
      'phishing breach encryption certificate firewall vulnerability confidential access permission ' +
      'credentials session recovery'
    ).split(' '),
    subjects: [
      'Security alert: new login from {city}',
      'Your verification code is {n}',
      'Password reset request',
      'Suspicious activity on your account',
      'Certificate expires in {n} days',
      'Confidential: access review',
    ],
  },
  personal: {
    words: (
      'birthday dinner party kids school photos garden recipe family grandma gift wedding anniversary movie ' +
      'concert tickets barbecue football church neighbours dog cat cake picnic beach'
    ).split(' '),
    subjects: [
      'Photos from the weekend',
      'Dinner on {day}?',
      "{name}'s birthday party",
      'Tickets for the concert',
      'Barbecue at our place',
      'Wedding plans',
    ],
  },
  projects: {
    words: (
      'project milestone deadline deliverable proposal agreement signature approval stakeholder ' +
      'requirements scope estimate timeline status report risk cancelled postponed priority roadmap launch ' +
      'phase kickoff'
    ).split(' '),
    subjects: [
      'Project status report: week {week}',
      'Deadline for the {w} deliverable',
      'Proposal draft for review',
      'Milestone {n} approved',
      'Roadmap update {quarter}',
      'Project {w} cancelled',
    ],
  },
  legal: {
    words: (
      'contract clause liability compliance regulation gdpr privacy consent terms amendment lawyer ' +
      'counsel dispute settlement notice obligation trademark license renewal jurisdiction'
    ).split(' '),
    subjects: [
      'Contract amendment {n}',
      'Privacy policy update',
      'License renewal notice',
      'Compliance review {quarter}',
      'Terms of the settlement',
    ],
  },
};

export const newsletterTopics = ['shopping', 'security', 'meetings', 'travel'];

// Phrases that recur in English mail, so phrase and NEAR queries have something to find.
export const englishPhrases = [
  'quarterly report',
  'conference call',
  'budget meeting',
  'please find attached',
  'let me know',
  'as discussed',
  'looking forward to hearing from you',
  'shipment tracking number',
  'next steps',
];

export const months =
  'January February March April May June July August September October November December'.split(' ');
export const days = 'Monday Tuesday Wednesday Thursday Friday'.split(' ');
export const cities =
  'Berlin London Paris Warsaw Tokyo Lisbon Vienna Madrid Chicago Toronto Sydney Oslo'.split(' ');

export type LangPool = {
  words: string[];
  subjects: string[];
  greetings: string[]; // {name}; each holds at least one non-ASCII character
  closings: string[];
  extra: string[]; // whole sentences used now and then
  cjk: boolean; // no spaces between words, wrapped by character count
  first: string[];
  last: string[];
};

export const languages: Record<Exclude<Lang, 'en'>, LangPool> = {
  de: {
    words: (
      'Rechnung Angebot Besprechung Termin Grüße Mitarbeiter Überweisung Bestätigung Lieferung Straße Größe ' +
      'schön für über können würde Änderung Prüfung Gebühr Zahlung Vertrag Kunde Woche morgen heute bitte ' +
      'danke Unterlagen Frühstück Bücher Österreich München Köln Projekt Ausschreibung Rückfrage Vorschlag ' +
      'Konferenz Müller Bericht Abteilung nächste Übersicht Entwurf Schlüssel wählen zurück'
    ).split(' '),
    subjects: [
      'Rechnung Nr. {n}',
      'Angebot für {w}',
      'Besprechung am Donnerstag',
      'Termin mit Herrn Müller',
      'Bestätigung Ihrer Überweisung',
      'Änderung der Lieferadresse',
      'Grüße aus München',
      'Rückfrage zum Vertrag',
    ],
    greetings: [
      'Grüß Gott {name}, hier die Übersicht für nächste Woche.',
      'Hallo {name}, schöne Grüße aus Köln!',
    ],
    closings: ['Mit freundlichen Grüßen', 'Viele Grüße'],
    extra: ['Herr Müller hat die Rechnung schon geprüft.', 'Die Unterlagen für Frau Müller liegen im Büro.'],
    cjk: false,
    first: ['Jonas', 'Lukas', 'Anna', 'Lena', 'Jürgen', 'Björn', 'Sören', 'Käthe', 'Uwe', 'Heike'],
    last: ['Müller', 'Schröder', 'Groß', 'Weiß', 'Bäcker', 'Köhler', 'Krüger', 'Schäfer', 'Fuchs', 'Wagner'],
  },
  fr: {
    words: (
      'facture réunion rendez-vous déjà été très reçu prévu équipe société conférence merci côté hôtel ' +
      'fenêtre garçon Noël naïve à où là-bas problème intérêt dépenses prêt accès modèle élève bientôt ' +
      'rapport projet contrat paiement semaine demain aujourd’hui'
    )
      .split(' ')
      .filter((w) => !w.includes('’')), // iso-8859-1 has no ’
    subjects: [
      'Facture n° {n}',
      "Réunion de l'équipe",
      "Rendez-vous à l'hôtel",
      'Conférence prévue',
      'Reçu de paiement',
    ],
    greetings: [
      'Bonjour {name}, voilà le résumé de la réunion prévue.',
      'Chère {name}, merci pour ta réponse très rapide.',
    ],
    closings: ['Bien à vous', 'Cordialement'],
    extra: ["L'équipe a déjà reçu le contrat.", 'La conférence aura lieu à Genève.'],
    cjk: false,
    first: ['François', 'Hélène', 'Jérôme', 'Zoë', 'Amélie', 'Cécile', 'Léa', 'René'],
    last: ['Lefèvre', 'Dupont', 'Bérenger', 'Mercier', 'Gauthier', 'Faure'],
  },
  pl: {
    words: (
      'faktura spotkanie dziękuję proszę pozdrawiam wiadomość załącznik środa piątek przesyłka zamówienie ' +
      'płatność umowa termin sprawozdanie źródło Łódź Kraków Gdańsk Wrocław Poznań księgowość żółty ' +
      'ćwiczenie uwaga zespół projekt wniosek jutro dzisiaj tydzień miesiąc klient dostawa cena'
    ).split(' '),
    subjects: [
      'Faktura nr {n}',
      'Spotkanie w środę',
      'Zażółć gęślą jaźń',
      'Przesyłka z Łodzi',
      'Płatność za zamówienie {n}',
      'Wiadomość od zespołu',
    ],
    greetings: [
      'Dzień dobry {name}, przesyłam podsumowanie spotkania.',
      'Cześć {name}, dziękuję za szybką odpowiedź.',
    ],
    closings: ['Pozdrawiam serdecznie', 'Z poważaniem'],
    extra: ['Zażółć gęślą jaźń.', 'Faktura jest w załączniku, płatność do piątku.'],
    cjk: false,
    first: ['Łukasz', 'Paweł', 'Małgorzata', 'Agnieszka', 'Michał', 'Wojciech', 'Zofia', 'Jędrzej'],
    last: ['Wójcik', 'Kowalski', 'Nowak', 'Żak', 'Łuczak', 'Wiśniewska', 'Dąbrowski', 'Kołodziej'],
  },
  ru: {
    words: (
      'Привет счёт встреча договор оплата отчёт проект неделя завтра сегодня спасибо пожалуйста доставка ' +
      'заказ бюджет команда совещание письмо вложение компания клиент директор Москва срочно вопрос ответ ' +
      'документы подпись коллеги уважением ещё всё'
    ).split(' '),
    subjects: [
      'Привет из Москвы',
      'Счёт {n}',
      'Встреча завтра',
      'Договор и оплата',
      'Отчёт за неделю',
      'Доставка заказа {n}',
    ],
    greetings: ['Привет, {name}! Вот отчёт за неделю.', 'Добрый день, {name}. Счёт во вложении.'],
    closings: ['С уважением', 'Всего доброго'],
    extra: ['Привет всей команде!', 'Оплата счёта ожидается завтра.'],
    cjk: false,
    first: ['Дмитрий', 'Анна', 'Сергей', 'Ольга', 'Алексей', 'Наталья', 'Иван', 'Татьяна'],
    last: ['Иванов', 'Петрова', 'Смирнов', 'Кузнецова', 'Попов', 'Соколова', 'Лебедев', 'Козлова'],
  },
  ja: {
    words: (
      '会議 請求書 確認 資料 見積書 納品 予定 来週 明日 本日 東京 大阪 担当 案件 契約 支払い ご連絡 打ち合わせ ' +
      '株式会社 報告 添付 日程 変更 お願い 対応 検討 ご確認ください よろしく'
    ).split(' '),
    subjects: [
      '会議の日程について',
      '請求書送付のご案内',
      '見積書のご確認',
      '打ち合わせのお願い',
      '資料送付の件',
      '来週の予定',
    ],
    greetings: ['{name}様、いつもお世話になっております。', '{name}さん、お疲れ様です。'],
    closings: ['よろしくお願いいたします。', '以上、よろしくお願いします。'],
    extra: ['添付の資料をご確認ください。', '来週の会議は東京で行います。'],
    cjk: true,
    first: ['太郎', '花子', '健一', '美咲', '大輔', '由美'],
    last: ['田中', '佐藤', '鈴木', '高橋', '渡辺', '伊藤'],
  },
  zh: {
    words: (
      '会议 发票 报告 项目 合同 付款 预算 客户 明天 今天 下周 谢谢 请 确认 附件 北京 上海 深圳 经理 团队 通知 ' +
      '安排 问题 回复 文件 订单 发货 价格 时间 地点'
    ).split(' '),
    subjects: ['会议通知', '发票 {n}', '项目报告', '关于合同付款', '下周安排'],
    greetings: ['{name}，你好！这是本周的报告。', '{name}，您好，请确认附件。'],
    closings: ['谢谢！', '此致敬礼'],
    extra: ['会议安排在明天下午。', '请尽快确认订单。'],
    cjk: true,
    first: ['伟', '芳', '娜', '敏', '静', '磊'],
    last: ['王', '李', '张', '刘', '陈', '杨'],
  },
  zhTW: {
    words: (
      '會議 發票 報告 專案 合約 付款 預算 客戶 明天 今天 下週 謝謝 請 確認 附件 台北 高雄 經理 團隊 通知 安排 ' +
      '問題 回覆 文件 訂單 出貨 價格 時間 地點'
    ).split(' '),
    subjects: ['會議通知', '發票 {n}', '專案報告', '關於合約付款', '下週安排'],
    greetings: ['{name}，你好！這是本週的報告。', '{name}，您好，請確認附件。'],
    closings: ['謝謝！', '敬祝 商祺'],
    extra: ['會議安排在明天下午。', '請盡快確認訂單。'],
    cjk: true,
    first: ['志明', '淑芬', '家豪', '怡君'],
    last: ['陳', '林', '黃', '張'],
  },
  ko: {
    words: (
      '회의 청구서 보고서 프로젝트 계약 결제 예산 고객 내일 오늘 다음 주 감사합니다 확인 첨부 서울 부산 팀장 ' +
      '공지 일정 문제 답장 문서 주문 배송 가격 시간 장소'
    ).split(' '),
    subjects: ['회의 일정 안내', '청구서 {n}', '프로젝트 보고서', '계약 및 결제', '다음 주 일정'],
    greetings: [
      '{name}님, 안녕하세요. 이번 주 보고서입니다.',
      '안녕하세요 {name}님, 첨부 문서를 확인해 주세요.',
    ],
    closings: ['감사합니다.', '좋은 하루 되세요.'],
    extra: ['회의는 내일 오후에 서울에서 있습니다.', '결제는 다음 주까지입니다.'],
    cjk: false,
    first: ['민준', '서연', '지훈', '수빈', '현우', '지민'],
    last: ['김', '이', '박', '최', '정', '강'],
  },
};

export const englishNames = {
  first: (
    'Anna James Mary Robert Linda Michael Sarah David Emma Daniel Olivia Thomas Sophie Chris Laura Mark ' +
    'Emily Peter Rachel Kevin Grace Henry Alice Oliver Julia Samuel Nina Victor'
  ).split(' '),
  last: (
    'Smith Johnson Brown Taylor Wilson Clark Lewis Walker Hall Young Allen King Wright Scott Green Baker ' +
    'Adams Nelson Carter Muller Reed Murphy'
  ).split(' '),
};

export const organisations = [
  { name: 'Northwind Shop', address: 'news@northwind-shop.example', topic: 'shopping' },
  { name: 'Parcel Express', address: 'noreply@parcel-express.example', topic: 'shopping' },
  { name: 'SkyWays Airlines', address: 'itinerary@skyways.example', topic: 'travel' },
  { name: 'CloudBank Security', address: 'security@cloudbank.example', topic: 'security' },
  { name: 'DevConf', address: 'hello@devconf.example', topic: 'meetings' },
  { name: 'Acme Webinars', address: 'events@acme-webinars.example', topic: 'meetings' },
  { name: 'Contoso IT', address: 'it-alerts@contoso.example', topic: 'security' },
  { name: 'Hotel Aurora', address: 'reservations@hotel-aurora.example', topic: 'travel' },
];

export const domains: Record<Lang, string[]> = {
  en: ['acme.example', 'globex.example', 'initech.example', 'mail.example', 'umbrella.example'],
  de: ['firma.example', 'gmx.example', 'web.example'],
  fr: ['societe.example', 'orange.example'],
  pl: ['firma-pl.example', 'onet.example'],
  ru: ['kompaniya.example', 'yandex.example'],
  ja: ['kaisha.example', 'docomo.example'],
  zh: ['gongsi.example', 'qq.example'],
  zhTW: ['gongsi-tw.example', 'hinet.example'],
  ko: ['hoesa.example', 'naver.example'],
};
