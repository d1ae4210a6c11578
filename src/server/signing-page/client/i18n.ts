/**
 * The page's built-in texts in the languages the browser asks for (`navigator.languages`, first one
 * known wins; English otherwise, as the server rendered it). Texts the packet set in
 * `signaturePageOptions` always win: page.ts lists their keys in `cfg.customTexts`.
 */
import type { SigningPageConfig } from './contract.js';
import { maybe$ } from './dom.js';

interface Words {
  next: string;
  signButtonText: string;
  progress: (done: number, n: number) => string;
  nothing: string;
  signTitle: string;
  signDescription: string;
  signatureLabel: string;
  initialLabel: string;
  drawSignatureTitle: string;
  drawSignatureDescription: string;
  drawSignatureButtonText: string;
  drawInitialsTitle: string;
  drawInitialsDescription: string;
  drawInitialsButtonText: string;
  clear: string;
  typeInstead: string;
  cancel: string;
  typeSignature: string;
  typeInitials: string;
  pleaseDraw: string;
  pleaseType: string;
  reviewTitle: string;
  reviewDescription: string;
  back: string;
}

const EN: Words = {
  next: 'Next field',
  signButtonText: 'Finish signing',
  progress: (d, n) => d + ' of ' + n + ' fields signed',
  nothing: 'Nothing to click: review the documents, then finish.',
  signTitle: 'Review and sign',
  signDescription: 'Press each highlighted box to sign it; "Next field" takes you to the next one.',
  signatureLabel: 'Signature',
  initialLabel: 'Initials',
  drawSignatureTitle: 'Your signature',
  drawSignatureDescription: 'Draw your signature below (mouse, finger or pen), or type it instead.',
  drawSignatureButtonText: 'Adopt and sign',
  drawInitialsTitle: 'Your initials',
  drawInitialsDescription: 'Draw your initials below, or type them instead.',
  drawInitialsButtonText: 'Adopt and initial',
  clear: 'Clear',
  typeInstead: 'Type instead',
  cancel: 'Cancel',
  typeSignature: 'Type your signature',
  typeInitials: 'Type your initials',
  pleaseDraw: 'Please draw, or choose Type instead.',
  pleaseType: 'Please type it.',
  reviewTitle: 'Review your marks',
  reviewDescription: 'Each box you signed, with its page. Confirm to sign the documents.',
  back: 'Back',
};

const WORDS: Record<string, Words> = {
  en: EN,
  de: {
    next: 'Nächstes Feld',
    signButtonText: 'Unterzeichnung abschließen',
    progress: (d, n) => d + ' von ' + n + ' Feldern unterschrieben',
    nothing: 'Nichts anzuklicken: Dokumente prüfen, dann abschließen.',
    signTitle: 'Prüfen und unterschreiben',
    signDescription:
      'Tippen Sie auf jedes markierte Feld, um es zu unterschreiben; „Nächstes Feld“ führt zum nächsten.',
    signatureLabel: 'Unterschrift',
    initialLabel: 'Kürzel',
    drawSignatureTitle: 'Ihre Unterschrift',
    drawSignatureDescription: 'Zeichnen Sie unten Ihre Unterschrift (Maus, Finger oder Stift) oder tippen Sie sie.',
    drawSignatureButtonText: 'Übernehmen und unterschreiben',
    drawInitialsTitle: 'Ihr Kürzel',
    drawInitialsDescription: 'Zeichnen Sie unten Ihr Kürzel oder tippen Sie es.',
    drawInitialsButtonText: 'Übernehmen und abzeichnen',
    clear: 'Löschen',
    typeInstead: 'Stattdessen tippen',
    cancel: 'Abbrechen',
    typeSignature: 'Unterschrift eintippen',
    typeInitials: 'Kürzel eintippen',
    pleaseDraw: 'Bitte zeichnen oder „Stattdessen tippen“ wählen.',
    pleaseType: 'Bitte eintippen.',
    reviewTitle: 'Ihre Zeichen prüfen',
    reviewDescription:
      'Jedes Feld, das Sie unterschrieben haben, mit seiner Seite. Bestätigen Sie, um die Dokumente zu unterzeichnen.',
    back: 'Zurück',
  },
  fr: {
    next: 'Champ suivant',
    signButtonText: 'Terminer la signature',
    progress: (d, n) => d + ' champ(s) signé(s) sur ' + n,
    nothing: 'Rien à cliquer : relisez les documents, puis terminez.',
    signTitle: 'Relire et signer',
    signDescription: 'Touchez chaque case en surbrillance pour la signer ; « Champ suivant » mène à la suivante.',
    signatureLabel: 'Signature',
    initialLabel: 'Initiales',
    drawSignatureTitle: 'Votre signature',
    drawSignatureDescription: 'Dessinez votre signature ci-dessous (souris, doigt ou stylet), ou saisissez-la.',
    drawSignatureButtonText: 'Adopter et signer',
    drawInitialsTitle: 'Vos initiales',
    drawInitialsDescription: 'Dessinez vos initiales ci-dessous, ou saisissez-les.',
    drawInitialsButtonText: 'Adopter et parapher',
    clear: 'Effacer',
    typeInstead: 'Saisir plutôt',
    cancel: 'Annuler',
    typeSignature: 'Saisissez votre signature',
    typeInitials: 'Saisissez vos initiales',
    pleaseDraw: 'Dessinez, ou choisissez « Saisir plutôt ».',
    pleaseType: 'Veuillez la saisir.',
    reviewTitle: 'Vérifiez vos marques',
    reviewDescription: 'Chaque case signée, avec sa page. Confirmez pour signer les documents.',
    back: 'Retour',
  },
  es: {
    next: 'Campo siguiente',
    signButtonText: 'Terminar la firma',
    progress: (d, n) => d + ' de ' + n + ' campos firmados',
    nothing: 'Nada que pulsar: revise los documentos y termine.',
    signTitle: 'Revisar y firmar',
    signDescription: 'Pulse cada casilla resaltada para firmarla; «Campo siguiente» lleva a la próxima.',
    signatureLabel: 'Firma',
    initialLabel: 'Iniciales',
    drawSignatureTitle: 'Su firma',
    drawSignatureDescription: 'Dibuje su firma abajo (ratón, dedo o lápiz) o escríbala.',
    drawSignatureButtonText: 'Adoptar y firmar',
    drawInitialsTitle: 'Sus iniciales',
    drawInitialsDescription: 'Dibuje sus iniciales abajo o escríbalas.',
    drawInitialsButtonText: 'Adoptar y rubricar',
    clear: 'Borrar',
    typeInstead: 'Escribir en su lugar',
    cancel: 'Cancelar',
    typeSignature: 'Escriba su firma',
    typeInitials: 'Escriba sus iniciales',
    pleaseDraw: 'Dibuje, o elija «Escribir en su lugar».',
    pleaseType: 'Escríbala, por favor.',
    reviewTitle: 'Revise sus marcas',
    reviewDescription: 'Cada casilla que firmó, con su página. Confirme para firmar los documentos.',
    back: 'Volver',
  },
  pt: {
    next: 'Próximo campo',
    signButtonText: 'Concluir assinatura',
    progress: (d, n) => d + ' de ' + n + ' campos assinados',
    nothing: 'Nada para clicar: reveja os documentos e conclua.',
    signTitle: 'Rever e assinar',
    signDescription: 'Toque em cada caixa destacada para assiná-la; "Próximo campo" leva à seguinte.',
    signatureLabel: 'Assinatura',
    initialLabel: 'Rubrica',
    drawSignatureTitle: 'A sua assinatura',
    drawSignatureDescription: 'Desenhe a sua assinatura abaixo (rato, dedo ou caneta) ou digite-a.',
    drawSignatureButtonText: 'Adotar e assinar',
    drawInitialsTitle: 'A sua rubrica',
    drawInitialsDescription: 'Desenhe a sua rubrica abaixo ou digite-a.',
    drawInitialsButtonText: 'Adotar e rubricar',
    clear: 'Limpar',
    typeInstead: 'Digitar',
    cancel: 'Cancelar',
    typeSignature: 'Digite a sua assinatura',
    typeInitials: 'Digite a sua rubrica',
    pleaseDraw: 'Desenhe, ou escolha "Digitar".',
    pleaseType: 'Digite-a, por favor.',
    reviewTitle: 'Reveja as suas marcas',
    reviewDescription: 'Cada caixa que assinou, com a sua página. Confirme para assinar os documentos.',
    back: 'Voltar',
  },
  ja: {
    next: '次の欄へ',
    signButtonText: '署名を完了',
    progress: (d, n) => n + ' 欄中 ' + d + ' 欄に署名済み',
    nothing: 'クリックする欄はありません。文書を確認して完了してください。',
    signTitle: '確認して署名',
    signDescription: '強調表示された各欄を押して署名します。「次の欄へ」で次の欄に移動します。',
    signatureLabel: '署名',
    initialLabel: 'イニシャル',
    drawSignatureTitle: 'あなたの署名',
    drawSignatureDescription: '下に署名を描いてください(マウス、指、ペン)。入力することもできます。',
    drawSignatureButtonText: '採用して署名',
    drawInitialsTitle: 'あなたのイニシャル',
    drawInitialsDescription: '下にイニシャルを描くか、入力してください。',
    drawInitialsButtonText: '採用してイニシャルを記入',
    clear: '消去',
    typeInstead: '入力する',
    cancel: 'キャンセル',
    typeSignature: '署名を入力',
    typeInitials: 'イニシャルを入力',
    pleaseDraw: '描くか、「入力する」を選んでください。',
    pleaseType: '入力してください。',
    reviewTitle: '署名内容の確認',
    reviewDescription: '署名した各欄とそのページです。確認すると文書に署名します。',
    back: '戻る',
  },
};

/** The first of the browser's languages the page knows ('en' when none). */
function pageLanguage(languages: readonly string[]): string {
  for (const l of languages) {
    const primary = l.toLowerCase().split('-')[0] as string;
    if (WORDS[primary]) return primary;
  }
  return 'en';
}

/** The built-in words in the browser's language. */
export const words: Words = WORDS[pageLanguage(navigator.languages ?? [navigator.language])] as Words;

/**
 * Puts the built-in words into the page and `cfg.texts`, except where the packet set its own text.
 * English is what the server rendered: nothing to do.
 */
export function localize(cfg: SigningPageConfig): void {
  const lang = pageLanguage(navigator.languages ?? [navigator.language]);
  if (lang === 'en') return;
  document.documentElement.lang = lang;
  const own = new Set(cfg.customTexts);
  const w = words;
  const set = (key: keyof Words | null, id: string, text: string) => {
    const el = maybe$(id);
    if (el && (key === null || !own.has(key))) el.textContent = text;
  };
  set(null, 'next', w.next);
  set('signButtonText', 'finish', w.signButtonText);
  set('signTitle', 'docs-h', w.signTitle);
  set('signDescription', 'sign-desc', w.signDescription);
  set(null, 'clear', w.clear);
  set(null, 'use-typed', w.typeInstead);
  set(null, 'adopt-cancel', w.cancel);
  set(null, 'confirm-h', w.reviewTitle);
  set(null, 'confirm-desc', w.reviewDescription);
  set(null, 'confirm-back', w.back);
  set('signButtonText', 'confirm-ok', w.signButtonText);
  const pick = (key: keyof Words, current: string) => (own.has(key) ? current : (w[key] as string));
  const s = cfg.texts.signature,
    i = cfg.texts.initial;
  s.label = pick('signatureLabel', s.label);
  s.title = pick('drawSignatureTitle', s.title);
  s.description = pick('drawSignatureDescription', s.description);
  s.button = pick('drawSignatureButtonText', s.button);
  i.label = pick('initialLabel', i.label);
  i.title = pick('drawInitialsTitle', i.title);
  i.description = pick('drawInitialsDescription', i.description);
  i.button = pick('drawInitialsButtonText', i.button);
}
