// Phrases that address an AI reader rather than a person, used by suspectInjection (untrusted.ts).
// They run over text that is already normalised: NFKC, zero-width and bidi controls removed, lowercase,
// curly apostrophes made straight, whitespace collapsed within a line and lines joined with '\n'.
// A second pass runs them over the same text with the letters that look like Latin ones folded to them (latin-lookalikes.ts).
//
// This is a hint for the UI, not a defence (DESIGN.md §8): the aim is few false positives on ordinary
// mail, so most patterns need an AI-directed object ("previous *instructions*", "*all* invoices",
// "the *user*") rather than the verb alone. Human mail says "please ignore my previous email" and
// "forward this to your team"; injections say "ignore previous instructions" and "forward all invoices".
// Known misses: paraphrases, spaced-out letters, encodings (base64, rot13) and languages not listed.
//
// JavaScript's \b only knows ASCII word characters, so non-English patterns use B and E instead.

/** Start of a word (Unicode-aware). */
const B = '(?<![\\p{L}\\p{N}_])';
/** End of a word (Unicode-aware). */
const E = '(?![\\p{L}\\p{N}_])';

export type InjectionReason =
  | 'ignore-instructions'
  | 'role-claim'
  | 'addressed-to-ai'
  | 'identity-override'
  | 'new-instructions'
  | 'forward-all'
  | 'send-secrets'
  | 'exfiltration'
  | 'conceal-from-user'
  | 'markdown-exfiltration'
  | 'hidden-characters';

export type InjectionPhrase = { reason: InjectionReason; language: string; pattern: RegExp };

const re = (source: string): RegExp => new RegExp(source, 'gmu');

const EN_PREVIOUS = '(?:previous|prior|above|earlier|preceding|former|original|system|existing|initial)';
const EN_ORDERS =
  '(?:instructions?|prompts?|rules|directions|directives|guidelines|context|commands|orders|programming)';
const AI_NAME =
  '(?:ai|a\\.i\\.|llm|assistant|ai assistant|language model|chatbot|bot|copilot|gemini|chatgpt|gpt|claude|agent|model)';
const EN_DOCS =
  '(?:e-?mails|messages|mails?|invoices|documents|files|attachments|correspondence|contacts|conversations|threads|receipts|statements|data)';
const EN_SECRETS =
  '(?:passwords?|passcodes?|pins?|credentials|api ?keys?|secret keys?|access tokens?|tokens|2fa codes?|otp|one-time (?:pass)?codes?|verification codes?|login details|bank details|card numbers?)';

export const injectionPhrases: readonly InjectionPhrase[] = [
  // English
  {
    reason: 'ignore-instructions',
    language: 'en',
    // "my" is deliberately not allowed before the adjective: "please ignore my previous instructions
    // about parking" is something people write to each other.
    pattern: re(
      `\\b(?:ignore|disregard|forget|override|bypass)\\s+(?:(?:all|any|the|your|of|these|those)\\s+)*${EN_PREVIOUS}\\s+(?:\\w+\\s+)?${EN_ORDERS}\\b`,
    ),
  },
  {
    reason: 'ignore-instructions',
    language: 'en',
    // "Disregard the above" alone is also a human's "sent in error"; we need it to go on with a new
    // order ("and", "instead", "now") before we flag it.
    pattern: re(
      `\\b(?:ignore|disregard|forget)\\s+(?:all\\s+(?:of\\s+)?|everything\\s+)?(?:the\\s+)?(?:above|foregoing)(?:\\s+(?:text|content|message))?\\s*[,.;:!]?\\s*(?:and|instead|now|then)\\b`,
    ),
  },
  {
    reason: 'ignore-instructions',
    language: 'en',
    pattern: re(
      `\\b(?:ignore|disregard|forget)\\s+(?:everything|all)\\s+(?:you\\s+(?:were|have been)\\s+told|before\\s+this)\\b`,
    ),
  },
  {
    reason: 'role-claim',
    language: 'en',
    // A line that opens like a chat transcript turn. "System:" also starts lines in bug reports
    // ("System: macOS 15"), so a short value after it is left alone.
    pattern: re(
      `^[^\\w\\n]{0,3}(?:system|assistant|developer|ai assistant|ai|sys|system (?:note|message|prompt|override|instructions?|update))(?: (?:note |message )?(?:for|to) (?:the |any )?${AI_NAME}(?: assistant)?)?[^\\w\\n]{0,3}: ?\\S+(?: \\S+){3,}`,
    ),
  },
  {
    reason: 'addressed-to-ai',
    language: 'en',
    pattern: re(
      `\\b(?:dear|hey|hello|attention|note (?:to|for)|message (?:to|for)|instructions? (?:to|for))\\s+(?:the\\s+|any\\s+)?(?:ai|llm|ai assistant|language model|chatbot|copilot|gemini|chatgpt|claude)\\b`,
    ),
  },
  {
    reason: 'addressed-to-ai',
    language: 'en',
    pattern: re('^[^\\w\\n]{0,3}(?:ai|assistant|ai assistant), \\w+'),
  },
  {
    reason: 'addressed-to-ai',
    language: 'en',
    // "As an AI company, we…" is a newsletter; "as an AI, you must…" talks to the model.
    pattern: re(`\\bas an? ${AI_NAME}(?: assistant| model)?,? you\\b`),
  },
  {
    reason: 'identity-override',
    language: 'en',
    // Plain "you are now" opens "you are now subscribed"; only identity and mode changes count.
    pattern: re(
      `\\b(?:you are now|from now on,? you are|you are no longer)\\s+(?:(?:in|an?|the|my)\\s+)?(?:dan|jailbroken|unrestricted|unfiltered|developer mode|god mode|admin mode|different|evil|free of|not bound|bound|${AI_NAME})\\b`,
    ),
  },
  {
    reason: 'new-instructions',
    language: 'en',
    pattern: re(
      `\\b(?:new|updated|revised|real|actual|true|hidden|secret|important)\\s+(?:system\\s+)?instructions?\\s*(?::|(?:for|to)\\s+(?:the\\s+|any\\s+)?${AI_NAME}\\b)`,
    ),
  },
  {
    reason: 'new-instructions',
    language: 'en',
    pattern: re(
      '\\b(?:follow|obey|execute|apply)\\s+(?:these|the following|my|the)\\s+new\\s+instructions\\b',
    ),
  },
  {
    reason: 'forward-all',
    language: 'en',
    // "Forward all inquiries to support@" is ordinary; the object has to be the mailbox's own content.
    pattern: re(
      `\\b(?:forward|send|copy|bcc|cc)\\s+(?:all|every|each|any)(?:\\s+(?:of\\s+)?(?:the|your|my|user's|these|new|unread|recent|incoming|future|other))*\\s+${EN_DOCS}\\b[^\\n]{0,80}?\\bto\\b`,
    ),
  },
  {
    reason: 'forward-all',
    language: 'en',
    pattern: re(
      '\\b(?:create|set up|add)\\s+(?:a\\s+|an\\s+)?(?:mail\\s+|email\\s+|inbox\\s+|auto-?)?forward(?:ing)?\\s+rule\\b',
    ),
  },
  {
    reason: 'send-secrets',
    language: 'en',
    pattern: re(
      `\\b(?:send|email|e-mail|mail|forward|share|post|upload|give|provide|reply with)\\b[^.\\n]{0,60}?\\b${EN_SECRETS}\\b[^.\\n]{0,60}?\\bto\\b`,
    ),
  },
  {
    reason: 'send-secrets',
    language: 'en',
    pattern: re(
      `\\b(?:send|give|tell|provide|share|reply with)\\s+(?:me|us)\\s+(?:your|the user's|the)\\s+${EN_SECRETS}\\b`,
    ),
  },
  { reason: 'exfiltration', language: 'en', pattern: re('\\bexfiltrat\\w*') },
  {
    reason: 'exfiltration',
    language: 'en',
    pattern: re(
      '\\b(?:append|add|include|encode|put)\\b[^.\\n]{0,60}?\\b(?:to|in|into)\\s+(?:the|this|a)\\s+(?:url|link|image url|query string|query parameter)\\b',
    ),
  },
  {
    reason: 'conceal-from-user',
    language: 'en',
    pattern: re(
      "\\b(?:do not|don't|dont|never|without)\\s+(?:tell|inform|notify|mention|reveal|alert|show|let|warn)(?:ing)?\\b[^.\\n]{0,40}?\\b(?:the\\s+)?(?:user|human)\\b",
    ),
  },
  {
    reason: 'conceal-from-user',
    language: 'en',
    pattern: re(
      '\\b(?:tell|inform)\\s+the\\s+user\\s+(?:that\\s+)?(?:there (?:are|were|is) no|nothing|everything is|it is (?:safe|routine))',
    ),
  },
  {
    reason: 'markdown-exfiltration',
    language: 'any',
    // EchoLeak (CVE-2025-32711): a Markdown image whose URL carries data is fetched without a click.
    pattern: re('!\\[[^\\]\\n]*\\]\\(\\s*(?:https?:)?//[^)\\s]*[?&][^)\\s]*=[^)]*\\)?'),
  },
  {
    reason: 'markdown-exfiltration',
    language: 'any',
    pattern: re('\\[[^\\]\\n]*\\]\\(\\s*(?:https?:)?//[^)\\s]*(?:\\{|\\$|<|%7b)[^)]*\\)?'),
  },

  // German
  {
    reason: 'ignore-instructions',
    language: 'de',
    pattern: re(
      `${B}(?:ignorier\\p{L}*|vergiss|vergesst|vergessen sie|missachte\\p{L}*)\\s+(?:(?:bitte|alle|s(?:ä|ae|a)mtliche|die|deine|ihre|jegliche)\\s+)*(?:vorherigen|bisherigen|vorigen|fr(?:ü|ue|u)heren|obigen|vorangegangenen|vorstehenden|urspr(?:ü|ue|u)nglichen)\\s+(?:\\p{L}+\\s+)?(?:anweisungen|anordnungen|instruktionen|befehle|regeln|vorgaben|richtlinien)${E}`,
    ),
  },
  {
    reason: 'forward-all',
    language: 'de',
    pattern: re(
      `${B}(?:leite|leiten sie|sende|senden sie|schicke|schicken sie)\\s+(?:\\p{L}+\\s+){0,2}?(?:alle|s(?:ä|ae|a)mtliche)\\s+(?:\\p{L}+\\s+)?(?:e-?mails|nachrichten|rechnungen|dokumente|anh(?:ä|ae|a)nge|kontakte|passw(?:ö|oe|o)rter)${E}`,
    ),
  },
  {
    reason: 'conceal-from-user',
    language: 'de',
    pattern: re(
      `${B}(?:sag|sage|sagen sie|erz(?:ä|ae|a)hl\\p{L}*|informiere\\p{L}*)\\s+(?:dem|den)\\s+(?:benutzer|nutzer|anwender)\\p{L}*\\s+nichts${E}`,
    ),
  },

  // French
  {
    reason: 'ignore-instructions',
    language: 'fr',
    pattern: re(
      `${B}(?:ignore[rz]?|oublie[rz]?|n(?:é|e)glige[rz]?)\\s+(?:(?:toutes|tous|les|tes|vos|des)\\s+)*(?:instructions|consignes|directives|r(?:è|e)gles|ordres|commandes)\\s+(?:pr(?:é|e)c(?:é|e)dentes|ant(?:é|e)rieures|d'avant|ci-dessus|pr(?:é|e)alables|initiales)${E}`,
    ),
  },
  {
    reason: 'forward-all',
    language: 'fr',
    pattern: re(
      `${B}(?:transf(?:è|e|é)re[rz]?|envoie[rz]?|envoyez|renvoie[rz]?)\\s+(?:tous|toutes)\\s+(?:les|tes|vos)\\s+(?:e-?mails|courriels|messages|factures|documents|pi(?:è|e)ces jointes|contacts|mots de passe)${E}`,
    ),
  },
  {
    reason: 'conceal-from-user',
    language: 'fr',
    pattern: re(
      `${B}ne\\s+(?:(?:le|lui|leur|rien|pas)\\s+)*(?:dis|dites|dire|mentionne[rz]?|informe[rz]?|signale[rz]?)\\b[^.\\n]{0,30}?l'utilisat(?:eur|rice)`,
    ),
  },

  // Spanish, with Italian and Portuguese neighbours that the same shape catches
  {
    reason: 'ignore-instructions',
    language: 'es',
    pattern: re(
      `${B}(?:ignora[rd]?|ignore|olvida[rd]?|omite|omitir|haz caso omiso de)\\s+(?:(?:todas|todos|las|los|tus|sus|as|tutte|le)\\s+)*(?:instrucciones|indicaciones|(?:ó|o)rdenes|reglas|directrices|instru(?:ç|c)(?:õ|o)es|istruzioni)\\s+(?:anteriores|previas|precedentes|de arriba|precedenti)${E}`,
    ),
  },
  {
    reason: 'forward-all',
    language: 'es',
    pattern: re(
      `${B}(?:reenv(?:í|i)a[rd]?|env(?:í|i)a[rd]?|manda[rd]?)\\s+(?:todos|todas)\\s+(?:los|las|tus|sus)\\s+(?:correos|e-?mails|mensajes|facturas|documentos|adjuntos|contactos|contrase(?:ñ|n)as)${E}`,
    ),
  },
  {
    reason: 'conceal-from-user',
    language: 'es',
    pattern: re(
      `${B}no\\s+(?:(?:le|les|se lo|nada)\\s+)*(?:digas|diga|informes|informe|menciones|mencione|avises|avise)\\b[^.\\n]{0,30}?al usuario${E}`,
    ),
  },

  // Russian
  {
    reason: 'ignore-instructions',
    language: 'ru',
    pattern: re(
      `${B}(?:игнорируй\\p{L}*|игнорировать|забудь\\p{L}*|не обращай\\p{L}* внимания на)\\s+(?:(?:все|всё|вс[её] свои)\\s+)?(?:предыдущие|прежние|прошлые|предшествующие|вышеуказанные|изначальные|ранее данные)\\s+(?:инструкции|указания|команды|правила|распоряжения|установки)${E}`,
    ),
  },
  {
    reason: 'forward-all',
    language: 'ru',
    pattern: re(
      `${B}(?:перешли|перешлите|отправь|отправьте|пересылай\\p{L}*)\\s+(?:мне\\s+)?(?:все|всё)\\s+(?:письма|сообщения|сч[её]та|документы|пароли|контакты)${E}`,
    ),
  },
  {
    reason: 'conceal-from-user',
    language: 'ru',
    pattern: re(
      `${B}не\\s+(?:говори|говорите|сообщай|сообщайте|рассказывай|рассказывайте)\\s+(?:об этом\\s+)?пользовател\\p{L}*`,
    ),
  },

  // Chinese (simplified and traditional)
  {
    reason: 'ignore-instructions',
    language: 'zh',
    pattern: re(
      '(?:忽略|无视|無視|忽视|忽視|忘记|忘記|忘掉|不要理会|不要理會)掉?(?:所有|全部|一切)?的?(?:之前|以前|先前|上面|上述|前面|此前|原来|原來|原有)的?(?:所有|全部|一切)?的?(?:指令|指示|说明|說明|命令|规则|規則|提示)',
    ),
  },
  {
    reason: 'forward-all',
    language: 'zh',
    pattern: re(
      '(?:将|將|把)(?:所有|全部)的?(?:邮件|郵件|电子邮件|電子郵件|发票|發票|消息|訊息|文件|联系人|聯絡人)[^。\\n]{0,20}?(?:转发|轉發|发送|發送)',
    ),
  },
  {
    reason: 'conceal-from-user',
    language: 'zh',
    pattern: re('(?:不要|别|別|切勿)(?:告诉|告訴|通知|提醒)(?:用户|用戶|使用者)'),
  },

  // Japanese
  {
    reason: 'ignore-instructions',
    language: 'ja',
    pattern: re(
      '(?:(?:すべて|全て|全部)の)?(?:以前|前|これまで|今まで|上記|先)の(?:(?:すべて|全て|全部)の)?(?:指示|命令|指令|ルール|プロンプト)(?:は|を)?(?:すべて|全て|全部)?(?:を)?(?:無視|忘れ)',
    ),
  },
  {
    reason: 'forward-all',
    language: 'ja',
    pattern: re('(?:すべて|全て|全部)の(?:メール|請求書|メッセージ|連絡先|ファイル)を[^。\\n]{0,40}?転送'),
  },
  {
    reason: 'conceal-from-user',
    language: 'ja',
    pattern: re('ユーザー?(?:に|には)(?:このことを|これを)?(?:言わ|伝え|知らせ|教え)ないで'),
  },
];
