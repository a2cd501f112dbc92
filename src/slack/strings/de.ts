import type { ThreadStrings } from './en.js';

/** German; what is missing here is said in English. */
export const de: Partial<ThreadStrings> = {
  categories: {
    testing: 'Tests',
    'data-analysis': 'Datenanalyse',
    'web-scraping': 'Web-Scraping',
    'code-review': 'Code-Review',
    'bug-fixing': 'Fehlerbehebung',
    feature: 'Funktion',
    refactoring: 'Refactoring',
    'incident-triage': 'Vorfall-Triage',
  },
  complexity: { simple: 'einfach', medium: 'mittel', complex: 'komplex' },
  taskOn: (category, repository, status) => `Aufgabe (${category}) in ${repository}: ${status}`,
  where: 'Wo:',
  constraints: 'Vorgaben:',
  doneWhen: 'Fertig, wenn:',
  cancel: 'Abbrechen',
  queued: (position) => `:hourglass_flowing_sand: In der Warteschlange${position ? ` (Position ${position})` : ''}`,
  queuedBehindThread: ':hourglass_flowing_sand: Wartet auf den Lauf, der in diesem Thread schon arbeitet',
  addDetails: 'Details ergänzen',
  startAnyway: 'Trotzdem starten',
  needMore: 'Bevor ich anfange, brauche ich noch etwas mehr, damit ich nicht raten muss:',
  answerHere: 'Antworte hier im Thread oder drücke *Details ergänzen*.',
  tooLarge: (step) =>
    `Das ist zu groß, um es in einem Zug gut zu machen, deshalb fange ich so nicht damit an. Ein begrenzter erster Schritt wäre:\n> ${step}\nErwähne mich damit (oder mit deinem eigenen ersten Schritt) in diesem Thread oder drücke *Trotzdem starten*.`,
  questionIntro: (requester) => `<@${requester}> Ich habe eine Frage, bevor ich weitermache:`,
  decideYourself: 'Entscheide selbst',
  deadline: (hasButtons, date) =>
    `${hasButtons ? 'Drücke einen Knopf oder antworte' : 'Antworte'} hier im Thread, oder lass mich entscheiden; bis dahin ist der Lauf pausiert. Ohne Antwort bis ${date} schließe ich mit dem ab, was ich habe.`,
  asked: (requester) => `<@${requester}> Ich habe gefragt:`,
  answered: (by, answer) => `<@${by}> hat geantwortet: ${answer}`,
  cancelledBy: (user) => `_Von <@${user}> abgebrochen, bevor eine Antwort kam._`,
  noAnswerInTime: '_Es kam keine Antwort rechtzeitig, also schließe ich mit dem ab, was ich habe._',
  reminder: (requester, question, date) =>
    `<@${requester}> Zur Erinnerung: Ich warte noch auf deine Antwort auf meine Frage oben (${question}). Ohne Antwort bis ${date} schließe ich mit dem ab, was ich habe.`,
  dateAt: 'um',
  phases: {
    queued: ':hourglass_flowing_sand: In der Warteschlange',
    preparing: ':package: Arbeitsbereich wird vorbereitet',
    working: ':hammer_and_wrench: In Arbeit',
    waiting: ':question: Wartet auf eine Antwort',
    verifying: ':test_tube: Wird geprüft',
    publishing: ':outbox_tray: Pull Request wird geöffnet',
    done: ':white_check_mark: Fertig',
    failed: ':x: Fehlgeschlagen',
    cancelled: ':no_entry_sign: Abgebrochen',
  },
  after: (elapsed) => `nach ${elapsed}`,
  usually: (elapsed, typical) => `${elapsed} (üblich: ${typical})`,
  seeEveryStep: 'alle Schritte ansehen',
};
