import { schedulesDe } from '../../schedules/schedule-strings.js';
import { answerDe } from '../../answers/answer-strings.js';
import { codeList, fetchHeld } from '../../error-words.js';
import type { SecretKind } from '../../security/secret-kind.js';
import { setupEgressLine } from '../../verification/render-verification.js';
import type { EgressStrings } from '../../verification/verification-strings.js';
import type { Catalogue } from './en.js';

/** A secretlint rule's credential ("etwas, das wie … aussieht"). */
const SECRET_RULES_DE: Record<string, string> = {
  github: 'ein GitHub-Token',
  slack: 'ein Slack-Token oder eine Webhook-URL',
  anthropic: 'ein Anthropic-API-Schlüssel',
  openai: 'ein OpenAI-API-Schlüssel',
  aws: 'AWS-Zugangsdaten',
  gcp: 'Google-Cloud-Zugangsdaten',
  privatekey: 'ein privater Schlüssel',
  'secp256k1-privatekey': 'ein privater Schlüssel',
  basicauth: 'ein Passwort in einer URL',
  'database-connection-string': 'ein Datenbank-Passwort',
  npm: 'ein npm-Token',
  sendgrid: 'ein SendGrid-API-Schlüssel',
  stripe: 'ein Stripe-Schlüssel',
};

/** What the egress policy refused during setup (said in the checks and in the progress line). */
const egressWords: EgressStrings = {
  egressNotAllowed: (target) => `${target}: nicht in der Liste erlaubter Ziele (sandbox.egress.allow)`,
  egressMetadata: (target, address) => `${target}: wird zu ${address} aufgelöst, der Metadaten-Adresse der Cloud`,
  egressNonPublic: (target, address) => `${target}: wird zu ${address} aufgelöst, keiner öffentlichen Adresse (Loopback, privat oder link-local)`,
  egressUpstreamRefused: (target, upstream, answer) => `${target}: der vorgeschaltete Proxy ${upstream} antwortete ${answer}`,
  egressUpstreamUnreachable: (target, upstream, answer) => `${target}: der vorgeschaltete Proxy ${upstream} war nicht erreichbar (${answer})`,
  setupCouldNotReach: (refusal, more) =>
    `Die Installation konnte dieses Ziel nicht erreichen: ${refusal}${more.length ? ` (und ${more.length} weitere abgewiesen: ${more.join(', ')})` : ''}.`,
};

/** The GitHub events a thread can be told Wrench could not act on, in the accusative ("auf den Kommentar"). */
const EVENT_WORDS_DE: Record<string, string> = {
  comment: 'den Kommentar',
  'review-comment': 'den Review-Kommentar',
  review: 'das Review',
  'check-failed': 'den fehlgeschlagenen Check',
  'check-passed': 'den bestandenen Check',
  'status-failed': 'den fehlgeschlagenen Commit-Status',
  closed: 'das Schließen des Pull Requests',
};

/** German; what is missing here is said in English. */
export const de: Catalogue = {
  categories: {
    testing: 'Tests',
    'data-analysis': 'Datenanalyse',
    'web-scraping': 'Web-Scraping',
    'code-review': 'Code-Review',
    'bug-fixing': 'Fehlerbehebung',
    feature: 'Funktion',
    refactoring: 'Refactoring',
    'incident-triage': 'Vorfall-Triage',
    question: 'Frage',
  },
  complexity: { simple: 'einfach', medium: 'mittel', complex: 'komplex' },
  taskOn: (category, repository, status) => `Aufgabe (${category}) in ${repository}: ${status}`,
  where: 'Wo:',
  constraints: 'Vorgaben:',
  doneWhen: 'Fertig, wenn:',
  cancel: 'Abbrechen',
  queued: (position) => `:hourglass_flowing_sand: In der Warteschlange${position ? ` (Position ${position})` : ''}`,
  queuedBehindThread: ':hourglass_flowing_sand: Wartet auf den Lauf, der in diesem Thread schon arbeitet',
  statusLine: {
    reading: 'liest deine Anfrage…',
    readingSteps: (repository) => ['Lese deine Anfrage…', `Schaue mir ${repository} an…`],
    waitingForWorker: 'wartet auf einen freien Worker…',
    // The details it gets begin with "wartet": "Wrench wartet auf …".
    waitingOn: (detail) => `${detail}…`,
  },
  addDetails: 'Details ergänzen',
  startAnyway: 'Trotzdem starten',
  needMore: 'Bevor ich anfange, brauche ich noch etwas mehr, damit ich nicht raten muss:',
  answerHere: 'Antworte hier im Thread oder drücke *Details ergänzen*.',
  startingAnyway: (user) => `Ich fange auf Wunsch von <@${user}> trotzdem an.`,
  enoughToStart: 'Danke, damit kann ich anfangen.',
  requestGone: 'Diese Anfrage hat schon begonnen oder ist abgelaufen.',
  requestBusy: 'Jemand startet diese Anfrage gerade oder ergänzt sie. Falls ich noch einmal nachfrage, antworte auf die neue Karte.',
  replyWhileStarting:
    'Diese Anfrage wurde gerade gestartet, als deine Nachricht ankam, deshalb wurde deine Nachricht ihr nicht hinzugefügt. Sobald der Lauf arbeitet, antworte hier, um sie an den Agenten weiterzugeben, oder erwähne mich, damit daraus eine Folgeaufgabe wird.',
  clarifying: {
    target: {
      testing: {
        question: 'Was sollen die Tests abdecken? Nenne das Modul, die Funktion oder das Verhalten, das getestet werden soll.',
        placeholder: '`formatBytes` in src/lib/format.ts: 0, 1023, 1024, negative Eingabe',
      },
      'code-review': {
        question: 'Was soll ich reviewen? Nenne eine PR-Nummer oder einen Link, einen Branch oder die Dateien.',
        placeholder: 'PR #123 in acme/api',
      },
      'data-analysis': { question: 'Welche Daten soll ich analysieren? Nenne die Datei, die Tabelle oder den Export.', placeholder: 'data/orders-2026-09.csv' },
      'web-scraping': {
        question: 'Von welchen Websites oder Seiten soll ich sammeln? Nenne die URLs und was von jeder gesammelt werden soll.',
        placeholder: 'https://example.com/pricing: Tarifname, Monatspreis, Währung',
      },
      refactoring: { question: 'Welchen Code soll ich refaktorisieren? Nenne die Dateien, das Modul oder die Funktionen.', placeholder: 'src/api/handlers.ts' },
      'bug-fixing': { question: 'Welcher Teil des Produkts ist betroffen?', placeholder: 'die Checkout-Seite, beim Bezahlen mit einer gespeicherten Karte' },
      feature: { question: 'Was genau soll ich bauen, und wo gehört es hin?', placeholder: 'ein `--json`-Flag für den Befehl `status` in src/cli/status.ts' },
      'incident-triage': { question: 'Welcher Dienst oder welches System ist betroffen?', placeholder: 'search-api (Repository acme/search)' },
      question: {
        question: 'Was möchtest du über den Code wissen? Nenne die Funktion, die Datei oder das Verhalten.',
        placeholder: 'wo das Rate-Limit für /search konfiguriert ist',
      },
    },
    failingTests: {
      question: 'Wie schlagen die Tests fehl? Füge die Namen der fehlschlagenden Tests und die Assertion oder Fehlerausgabe ein.',
      placeholder: 'test/cart/total.test.ts "applies coupon" schlägt auf main fehl: expected 10, received 9.99',
    },
    incidentSymptoms: {
      question: 'Was beobachtest du? Welcher Dienst, seit wann, und welche Symptome (Fehlerrate, Statuscodes, Alerts, ein kürzliches Deployment)?',
      placeholder: 'checkout-api: 502er auf POST /orders seit 14:05 UTC, direkt nach Release 3.4.1',
    },
    observedProblem: {
      question:
        'Was genau geht schief? Füge die Fehlermeldung oder den Stacktrace ein, sag, was du erwartet hast und was stattdessen passiert ist, und wie man es nachstellt.',
      placeholder: 'Erwartet: eine Abbuchung pro Bestellung. Tatsächlich: Ein Doppelklick auf „Bezahlen“ belastet die Karte zweimal.',
    },
    codeToTest: { question: 'Wo liegt der Code, der getestet werden soll? Nenne die Datei oder das Verzeichnis.', placeholder: 'src/lib/format.ts' },
    location: {
      question: 'Wo passiert es? Nenne die Datei, die Funktion, den Endpunkt oder die Seite.',
      placeholder: 'src/payments/charge.ts, `createCharge` (POST /checkout)',
    },
    rewriteScope: {
      question:
        'Ein kompletter Neuschrieb ist zu groß für eine Aufgabe. Mit welchem einzelnen Modul oder Dienst soll ich anfangen, und was muss es weiterhin können?',
      placeholder: 'nur der Endpunkt /search, gleiche API, die bestehenden Tests müssen bestehen',
    },
    scope: (subject) => ({
      question: `${subject ? `„${subject}“ ist` : 'Das ist'} ein großes Gebiet. Welches erste, abgegrenzte Stück soll ich bauen, und was gehört nicht dazu?`,
      placeholder: 'ein Checkout-Endpunkt mit Stripe Checkout, noch keine Erstattungen oder Abos',
    }),
    requirements: { question: 'Was muss es können? Liste die Anforderungen auf, eine pro Zeile.', placeholder: '1. …\n2. …' },
    analysisQuestions: {
      question: 'Welche Fragen soll die Analyse beantworten? Nenne die Kennzahlen oder Aufschlüsselungen und die gewünschte Ausgabe.',
      placeholder: 'Umsatz pro Tag, die 10 umsatzstärksten Produkte; eine Markdown-Tabelle und ein Balkendiagramm als PNG',
    },
    refactoringGoal: {
      question: 'Was soll danach anders sein? Nenne konkrete Änderungen und die Prüfungen, die weiter gelten müssen.',
      placeholder: 'eine Datei pro Ressource unter src/api/handlers/, kein geändertes Verhalten, die bestehenden Tests bestehen',
    },
    testsProve: {
      question: 'Was sollen die Tests beweisen? Nenne die Fälle oder die Abdeckung, die erreicht werden soll.',
      placeholder: 'jede exportierte Funktion hat einen Test; Branch-Abdeckung von src/lib/ mindestens 90 %',
    },
    done: {
      question: 'Woran erkennen wir, dass es fertig ist? Nenne ein messbares Ergebnis oder die Prüfungen, die bestehen müssen.',
      placeholder: 'die Seite lädt mit 1.000 Zeilen in unter 1 s; `npm test` besteht',
    },
    focusAreas: { question: 'Worauf soll sich das Review konzentrieren?', placeholder: 'SQL-Injection und Berechtigungsprüfungen in den neuen Admin-Routen' },
    findingsFormat: { question: 'Wie soll ich die Befunde berichten?', placeholder: 'Markdown, Schweregrad Critical/Major/Minor' },
    outputFormat: { question: 'In welchem Format möchtest du das Ergebnis?', placeholder: 'eine Markdown-Tabelle und ein Diagramm als PNG' },
    rateLimit: { question: 'Wie schnell darf ich Seiten abrufen?', placeholder: 'höchstens 1 Anfrage pro Sekunde' },
    errorHandling: {
      question: 'Was soll passieren, wenn eine Anfrage fehlschlägt oder ihr Zeitlimit überschreitet?',
      placeholder: 'zweimal mit Backoff wiederholen, dann die Seite überspringen',
    },
    logging: { question: 'Was soll geloggt werden?', placeholder: 'jede fehlgeschlagene URL mit ihrem Statuscode und dem Grund' },
    more: (element) => `Kannst du mehr zu „${element}“ sagen?`,
  },
  modal: { title: 'Details ergänzen', submit: 'Starten', close: 'Abbrechen', instruction: 'Deine Anweisung' },
  onlyRequesterAddsDetails: 'Nur wer gefragt hat oder eine Person mit Freigaberecht kann hier Details ergänzen.',
  onlyRequesterStarts: 'Nur wer gefragt hat oder eine Person mit Freigaberecht kann das starten.',
  whichRepository:
    'Dieser Kanal arbeitet mit mehreren Repositorys, und ich kann nicht erkennen, für welches diese Anfrage gedacht ist. Drücke auf das richtige oder nenne es in einer Antwort hier.',
  repositoryChosen: (user, repository) => `<@${user}> hat *${repository}* gewählt: Ich fange dort an.`,
  onlyRequesterChoosesRepository: 'Nur wer gefragt hat oder eine Person mit Freigaberecht kann das Repository wählen.',
  nameTheRepository: (repositories) =>
    `Ich kann immer noch nicht erkennen, für welches Repository das ist: Drücke oben auf einen der Knöpfe oder nenne in deiner Antwort eines von ${repositories}.`,
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
  questionStale: 'Diese Frage wurde schon beantwortet oder ist abgelaufen.',
  questionSettled: (outcome: string) => `Diese Frage ist schon erledigt: ${outcome}`,
  questionNotYours: (requester) =>
    `Danke! Ich habe <@${requester}> diese Frage gestellt und warte auf deren Antwort (oder die einer Person mit Freigaberecht); deine Nachricht zählt nicht als Antwort.`,
  lateAnswer: (question, date, mention) =>
    `Meine Frage („${question}“) ist ${date} ohne Antwort abgelaufen, deshalb hat der Lauf mit dem abgeschlossen, was er hatte, und deine Nachricht zählt nicht als seine Antwort. Um weiterzumachen, erwähne mich in diesem Thread mit deiner Antwort (${mention} und dahinter die Antwort): Das startet einen Folgelauf, der die Arbeit dieses Threads fortsetzt.`,
  questionExpired:
    ':warning: Dieser Lauf hat auf eine Antwort auf seine Frage gewartet, aber das gespeicherte Gespräch ist abgelaufen, deshalb kann er nicht weitermachen.',
  questionExpiredNext: 'Erwähne mich in diesem Thread, um neu anzufangen; was vor der Frage gepusht wurde, liegt auf dem Branch.',
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
  opened: (draft, pull, counts) =>
    `${draft ? ':warning:' : ':white_check_mark:'} ${draft ? 'Entwurfs-Pull-Request' : 'Pull Request'} geöffnet: ${pull}${counts}`,
  updated: (draft, pull, counts) => `:arrows_counterclockwise: ${draft ? 'Entwurfs-Pull-Request' : 'Pull Request'} aktualisiert: ${pull}${counts}`,
  answeredNoChange: ':speech_balloon: Keine Datei geändert, also kein Pull Request. Meine Antwort:',
  stoppedWithPull: (draft, pull, counts) => `:warning: Vorzeitig beendet; die bisherige Arbeit steht in ${pull}${draft ? ' (Entwurf)' : ''}${counts}`,
  stoppedNoChanges: ':warning: Vorzeitig beendet, ohne Änderungen.',
  runFailed: ':x: Der Lauf ist fehlgeschlagen.',
  pausedOnQuestion: ':question: Pausiert, bis meine Frage oben beantwortet ist.',
  everyStepOfThisRun: 'Alle Schritte dieses Laufs',
  replyRefused: ':information_source: Slack hat die ganze Antwort nicht angenommen, daher hier die Kurzfassung.',
  filesFromThisRun: (names) => `:paperclip: Dateien aus diesem Lauf: ${names}`,
  progress: {
    cloning: ({ repository, readOnly }) => `${repository} wird geklont${readOnly ? ' (nur lesend)' : ''}`,
    checkingOut: ({ branch }) => `${branch} wird ausgecheckt`,
    checkingOutHead: ({ number }) => `der neueste Stand von #${number} wird ausgecheckt (nur lesend)`,
    readingPull: ({ number }) => `Pull Request #${number} wird gelesen`,
    preparingReadOnly: ({ repository }) => `ein nur lesender Checkout von \`${repository}\` wird vorbereitet`,
    preparingBranch: ({ branch, base }) => `ein Branch \`${branch}\` von \`${base}\` wird vorbereitet`,
    installing: ({ command }) => `Abhängigkeiten werden installiert (\`${command}\`)`,
    installingNode: ({ version, source }) => `Node.js ${version} wird installiert (${source})`,
    refreshing: ({ command }) => `die wiederhergestellten Abhängigkeiten werden aktualisiert (\`${command}\`)`,
    dependenciesInPlace: 'die Abhängigkeiten derselben Lock-Dateien sind schon vorhanden',
    dependenciesRestored: 'Abhängigkeiten aus einer früheren Installation derselben Lock-Dateien wiederhergestellt',
    installFailed: ({ command, timedOut, exitCode, egress }) =>
      `Abhängigkeiten konnten nicht installiert werden: \`${command}\` ${timedOut ? 'hat das Zeitlimit überschritten' : `endete mit Exit-Code ${exitCode ?? 'keiner'}`}${egress?.length ? `. ${setupEgressLine(egress, egressWords)}` : ''}`,
    refreshFailed: ({ command, timedOut, exitCode }) =>
      `die Abhängigkeiten konnten nicht aktualisiert werden: \`${command}\` ${timedOut ? 'hat das Zeitlimit überschritten' : `endete mit Exit-Code ${exitCode ?? 'keiner'}`}`,
    testsOnBase: 'die Tests laufen auf dem Basis-Commit',
    readingCode: 'der Code wird gelesen',
    reviewingPull: ({ number }) => `#${number} wird reviewt`,
    reviewingCode: 'der Code wird reviewt',
    investigating: 'der Code wird untersucht (nur lesend, ohne Netzwerk)',
    readingIncident: 'der Vorfall, seine Alarme und Logeinträge werden gelesen',
    readingChanges: ({ branch, hours, before }) =>
      `die Änderungen auf \`${branch}\` in den ${hours} Stunden vor ${before === 'incident' ? 'dem Vorfall' : 'jetzt'} werden gelesen`,
    running: ({ command }) => `\`${command}\` läuft`,
    reading: ({ path }) => `${path} wird gelesen`,
    editing: ({ path }) => `${path} wird bearbeitet`,
    askingServer: ({ server, tool }) => `${server} wird gefragt (${tool})`,
    askingRequester: 'stellt dir eine Frage',
    updatingPlan: 'aktualisiert seinen Plan',
    queryingMetrics: ({ query }) => `Metriken werden abgefragt: \`${query}\``,
    listingMetrics: ({ mode, label, match }) => `Metrik-${mode}${label ? ` ${label}` : ''}${match ? ` von \`${match}\`` : ''} werden aufgelistet`,
    tool: ({ name }) => name,
    testsAfterChange: 'die Tests laufen nach der Änderung',
    testsAfterRevert: 'die Tests laufen nach dem Revert',
    testsAgain: 'die Tests laufen noch einmal',
    waitingForBaseline: 'wartet auf die Tests auf dem Basis-Commit',
    fixingBreakage: 'was die Änderung kaputt gemacht hat, wird behoben',
    regressionTestFails: 'es wird geprüft, dass der Regressionstest ohne die Korrektur fehlschlägt',
    coverageOnBase: ({ command }) => `die Testabdeckung auf dem Basis-Commit wird gemessen (\`${command}\`)`,
    coverageAfter: 'die Testabdeckung nach der Änderung wird gemessen',
    downloading: ({ count }) => `${count} angehängte ${count === 1 ? 'Datei wird' : 'Dateien werden'} heruntergeladen`,
    pushing: ({ branch }) => `${branch} wird gepusht`,
    pushingDraft: ({ branch }) => `\`${branch}\` wird gepusht und ein Entwurfs-Pull-Request geöffnet`,
    keepingWork: ({ branch }) => `die bisherige Arbeit wird auf ${branch} gesichert`,
    askedQuestion: ({ user }) => `hat ${user} eine Frage gestellt`,
    nothingPushed: 'es wurde nichts gepusht',
    cancelledBeforeStart: 'vor dem Start abgebrochen',
    stoppedDuring: ({ by, stage }) =>
      `von ${by} angehalten während ${{ setup: 'der Einrichtung (Klonen und Installieren der Abhängigkeiten)', work: 'der Arbeit', checks: 'der Prüfungen', publishing: 'der Veröffentlichung' }[stage]}`,
    retrying: ({ problem }) => `neuer Versuch gleich nach einem vorübergehenden Problem: ${problem}`,
    waitingThread: 'wartet auf den Lauf, der in diesem Thread schon läuft',
    waitingGlobal: 'wartet auf einen freien Platz (alle Worker sind beschäftigt)',
    waitingRepository: 'wartet, bis andere Läufe in diesem Repository fertig sind',
    waitingUser: 'wartet, bis deine anderen Läufe fertig sind',
    waitingDisk: ({ freeMb, needMb }) => `wartet auf Speicherplatz auf dem Worker (${freeMb} MB frei, ${needMb} MB zum Start nötig)`,
  },
  refactoring: {
    suiteFailsHeadline: ':warning: Die Testsuite schlägt schon auf dem Basis-Commit fehl, deshalb habe ich das Refactoring nicht begonnen.',
    suiteFailsAnswer: (test, failures) =>
      `Ein Refactoring muss eine bestandene Suite bestehen lassen, und ${test} schlägt schon vor jeder Änderung fehl: ${failures}. Behebe zuerst diese Tests oder erwähne mich noch einmal und sag, dass ich trotz der fehlschlagenden Tests refaktorieren soll.`,
    timedOut: 'Zeitüberschreitung',
    failing: (count, names) => `${count} fehlgeschlagen, darunter ${names}`,
    exitCode: (code) => `Exit-Code ${code}`,
    draftSuiteFails: 'Ein Refactoring muss die ganze Testsuite bestehen lassen, und sie schlägt nach dieser Änderung fehl.',
    movedAndRenamed: 'Verschoben und umbenannt',
    moved: (what, from, to) => `- ${what} verschoben: ${from} → ${to}`,
    renamed: (kind, from, to) => `- ${kind ? `${kind} ` : ''}${from} umbenannt in ${to}`,
    fullSuite: 'Ganze Testsuite',
    suiteBeforeAfter: (command, before, after) =>
      `Auf dem Basis-Commit ${before === undefined ? `lief ${command} nicht` : before ? `besteht ${command}` : `schlägt ${command} fehl`}, nach dem Refactoring ${after ? 'besteht es' : 'schlägt es fehl'}.`,
  },
  plan: {
    stages: {
      reading: 'Anfrage lesen',
      preparing: 'Arbeitsbereich vorbereiten',
      working: 'An der Änderung arbeiten',
      answering: 'Den Code für die Antwort lesen',
      edits: 'Dateien bearbeiten (der Agent)',
      'agent-tests': 'Tests ausführen (der Agent)',
      verifying: 'Prüfen: Tests und Checks ausführen',
      publishing: 'Veröffentlichen: Pull Request öffnen oder aktualisieren',
      question: 'Auf die Antwort auf meine Frage warten',
    },
    workingOn: (repository) => `Arbeit an ${repository}`,
    state: (state, what) =>
      `${{ queued: 'In der Warteschlange', waiting: 'Pausiert, wartet auf eine Antwort', done: 'Fertig', failed: 'Fehlgeschlagen', cancelled: 'Abgebrochen' }[state]}: ${what}`,
    cancelled: 'Abgebrochen',
    stopHint: 'zum Abbrechen erwähne mich mit „stop“',
    agentStep: (step) => `${step} (Plan des Agenten)`,
    droppedStep: 'aus dem Plan des Agenten gestrichen',
    notMarkedDone: 'vom Agenten nicht als erledigt markiert',
    editedFiles: (count, files) => `${count} ${count === 1 ? 'Datei' : 'Dateien'}: ${files}`,
    testRuns: (count, command) => `${count} ${count === 1 ? 'Lauf' : 'Läufe'}, zuletzt: ${command}`,
    everyStepOnPage: 'Alle Schritte auf der Seite des Laufs',
    couldNotQueue: 'der Lauf konnte nicht eingereiht werden',
    behindThreadRun: 'hinter dem Lauf, der in diesem Thread schon arbeitet',
    queuePosition: (position) => `Position ${position}`,
    restOnPage: 'Der Rest steht auf der Seite des Laufs.',
  },
  stoppedEarlyDetail: 'vorzeitig beendet',
  draftDetail: ' (Entwurf)',
  report: {
    outcomeSetupFailed: (setup) =>
      `Ergebnis: Wrench konnte die Abhängigkeiten nicht installieren (\`${setup}\` ist fehlgeschlagen), daher zeigen seine Prüfungen nicht, ob die Änderung funktioniert.`,
    outcomeRegressed: (command, fails, counts) =>
      `Ergebnis: Die Änderung hat Prüfungen gebrochen, die vorher bestanden haben; \`${command}\` ${fails ? 'schlägt fehl' : 'ist erfolgreich'}${counts}.`,
    outcomeFails: (command, counts, asBefore) => `Ergebnis: \`${command}\` schlägt nach der Änderung fehl${counts}${asBefore ? ', wie schon vorher' : ''}.`,
    outcomePasses: (command, counts) => `Ergebnis: \`${command}\` ist nach der Änderung erfolgreich${counts}.`,
    outcomePrefix: 'Ergebnis:',
    summary: 'Zusammenfassung',
    summaryAccount: 'Zusammenfassung (Darstellung des Agenten)',
    summaryContradicted: 'Zusammenfassung (Behauptung des Agenten, von Wrenchs Prüfungen widerlegt)',
    verification: 'Prüfung (von Wrench ausgeführt)',
    draftReason: 'Warum dies ein Entwurf ist',
    stoppedEarly: 'Vorzeitig beendet',
    changes: 'Änderungen (laut committetem Diff)',
    claimedNotChanged: 'Vom Agenten behauptet, aber nicht geändert',
    sectionAccount: (title) => `${title} (Darstellung des Agenten)`,
    sectionContradicted: (title) => `${title} (Behauptung des Agenten, von Wrenchs Prüfungen widerlegt)`,
    ownChecksUnconfirmed: 'Was der Agent nach eigener Aussage geprüft hat (von Wrench nicht bestätigt)',
    ownChecksContradicted: 'Was der Agent nach eigener Aussage geprüft hat (von Wrenchs Prüfungen widerlegt)',
    openQuestions: 'Offene Fragen (vom Agenten)',
    measuredFailed: (command, counts) => `Von Wrench gemessen: \`${command}\` ist nach der Änderung fehlgeschlagen${counts}.`,
    measuredRegressed: 'Von Wrench gemessen: Prüfungen, die vor der Änderung bestanden haben, schlagen danach fehl (siehe Prüfung).',
    agentSays: (description) => `: laut Agent: ${description}`,
    claimedOnly: (change) => `: behauptet, aber nicht geändert (der Agent sagte: ${change})`,
    instructionsRead: (files) => `Gelesene Anweisungen des Repositorys für Agenten: ${files}.`,
    instructionTruncated: '(gekürzt)',
    instructionOmitted: '(weggelassen: Größenlimit)',
    instructionSameAs: (path) => `(wie ${path})`,
    steps: (n) => `${n} ${n === 1 ? 'Schritt' : 'Schritte'}`,
    files: (n) => `${n} ${n === 1 ? 'Datei' : 'Dateien'}`,
    tokens: 'Tokens',
  },
  verification: {
    verdicts: { improved: 'verbessert', unchanged: 'wie vorher', regressed: 'verschlechtert', 'not-run': 'nicht ausgeführt' },
    passed: 'bestanden',
    failed: 'fehlgeschlagen',
    timedOut: 'Zeitlimit überschritten',
    timedOutAfter: (duration) => `Zeitlimit nach ${duration} überschritten`,
    setupTimedOut: (duration) => `brach nach ${duration} ab (Zeitlimit)`,
    exitedWith: (code) => (code === null ? 'wurde abgebrochen (kein Exit-Code)' : `endete mit Exit-Code ${code}`),
    failedWithExit: (code) => `fehlgeschlagen (Exit-Code ${code ?? 'keiner: abgebrochen'})`,
    couldNotInstall: 'Abhängigkeiten nicht installierbar',
    noTestCommand: 'Kein Testbefehl gefunden (festlegbar unter `verification:` in wrench.config.yml).',
    notRun: (command) => `${command} wurde nicht ausgeführt.`,
    setupFailed: (command, how) =>
      `**Abhängigkeiten konnten nicht installiert werden**: ${command} ${how}. Die Prüfungen unten liefen ohne sie und zeigen daher nicht, ob die Änderung funktioniert.`,
    baseSetupFailed: (command, how) =>
      `**Abhängigkeiten konnten auf dem Basis-Commit nicht installiert werden**: ${command} ${how}. Die Prüfungen auf dem Basis-Commit zählen daher nicht, und die Prüfungen der Änderung werden mit nichts verglichen.`,
    lastLines: 'Die letzten Zeilen der Ausgabe:',
    setupRemembered: (ago) =>
      `Nicht erneut ausgeführt: Er ist vor ${ago} mit denselben Lock-Dateien, demselben Setup-Befehl und denselben Laufzeitumgebungen fehlgeschlagen; hier steht jener Lauf. Er läuft wieder, sobald der Fehlschlag älter als \`cache.setupFailureMinutes\` ist.`,
    header: (withBaseline, verdict) =>
      `Von Wrench ${withBaseline ? 'auf dem Basis-Commit und nach der Änderung' : 'nach der Änderung'} ausgeführte Prüfungen: **${verdict}**.`,
    newFailures: (names) => `Neu fehlgeschlagen: ${names}.`,
    stillFailing: (names) => `Weiterhin fehlgeschlagen (schon vor der Änderung): ${names}.`,
    fixed: (names) => ` Behoben: ${names}.`,
    andMore: (names, more) => `${names} und ${more} weitere`,
    sameAsBefore: (outcome) => `wie vorher: ${outcome}`,
    beforeAfter: (before, after) => `vorher ${before} → nachher ${after}`,
    afterOnly: (outcome) => `${outcome} nach der Änderung; der Basis-Commit wurde nicht geprüft`,
    bothTimes: (state) => `vorher und nachher ${state}`,
    stateChange: (before, after) => `vorher ${before} → nachher ${after}`,
    outputEnd: (command) => `Ausgabe von ${command} (Ende):`,
    ...egressWords,
  },
  regression: {
    rootCause: 'Ursache',
    regressionTest: 'Regressionstest',
    noTest: ':warning: Kein Regressionstest: Die Änderung fügt keine Testdatei hinzu und ändert keine, also zeigt nichts, dass der Fehler behoben ist.',
    testsOnly: 'Die Änderung betrifft nur Tests, es gibt also keine Korrektur, gegen die sie geprüft werden könnten.',
    noCommand: 'Es wurde kein Testbefehl gefunden, daher konnte der Regressionstest nicht ausgeführt werden.',
    checkedBy: (files) =>
      `_Von Wrench geprüft: Die Tests liefen mit den korrigierten Quelldateien (${files}) auf dem Stand des Basis-Commits, dann mit der Korrektur._`,
    proven: (test, how) => `:white_check_mark: Regressionstest ${test} schlug ohne die Korrektur fehl und besteht mit ihr${how}.`,
    failingAfter: (test, how) => `:x: Regressionstest ${test} schlägt auch mit der Korrektur fehl${how}.`,
    notFailingBefore: (test, how) => `:warning: ${test} besteht auch ohne die Korrektur und zeigt den Fehler daher nicht${how}.`,
    notRun: (test, how) => `${test} wurde nicht ausgeführt${how}.`,
    couldNotCheck: (error) => `Ich konnte den Regressionstest nicht prüfen: ${error}`,
  },
  coverage: {
    title: 'Testabdeckung',
    metrics: { lines: 'Zeilen', statements: 'Anweisungen', coverage: 'Abdeckung' },
    notMeasured: 'nicht gemessen',
    notMeasuredFailed: 'nicht gemessen (der Befehl ist fehlgeschlagen)',
    afterOnly: (command, metric, after) => `${command}: ${metric} ${after} nach der Änderung (der Basis-Commit wurde nicht gemessen).`,
    beforeAfter: (command, metric, before, after, change) => `${command}: ${metric} vorher ${before} → nachher ${after}${change}.`,
    unchanged: ' (unverändert)',
    points: (delta) => ` (${delta} Prozentpunkte)`,
  },
  analysis: {
    mainResult: 'Hauptergebnis',
    fromReport: (path) => `Aus ${path}; der Bericht und die Diagramme sind diesem Ergebnis beigefügt (nicht committet).`,
    noTable: (path) => `${path} enthält keine Tabelle; die Datei ist unten angehängt.`,
    noReport: (folder) => `Der Lauf hat keinen Bericht in ${folder} hinterlassen.`,
    notUploaded: 'Nicht hochgeladen',
    skippedType: 'kein Bericht- oder Diagrammtyp, den ich teile',
    skippedCount: (max) => `mehr als ${max} Dateien`,
    skippedSize: 'zu groß zum Hochladen',
  },
  schedules: schedulesDe,
  images: {
    notImage: (name) => `${name} ist kein PNG-, JPEG-, GIF- oder WebP-Bild (nach seinem Inhalt) und wurde daher nicht gesendet.`,
    unreadable: (name) => `${name} ließ sich nicht als Bild lesen (es ist beschädigt oder unvollständig).`,
    tooLarge: (name) => `${name} ist zu groß zum Senden, auch verkleinert.`,
    notDownloaded: (name) => `${name} ließ sich nicht von Slack herunterladen.`,
    tooMany: (max, names) => `Nur die ersten ${max} Bilder werden gesendet; weggelassen: ${names}.`,
  },
  stop: {
    cancelledBy: (user, via) => `Von ${user}${via === 'page' ? ' auf der Laufseite' : via === 'home' ? ' in App Home' : ''} abgebrochen.`,
    cancelled: 'Abgebrochen.',
    cancelledWhileWaiting: (user) => `Von ${user} abgebrochen, während der Lauf auf eine Antwort wartete.`,
    restarting: 'Wrench wurde neu gestartet, deshalb hat dieser Lauf angehalten.',
    toGoOn: 'Um weiterzumachen, erwähne mich in diesem Thread.',
    noAnswer: (waited) => `Niemand hat meine Frage innerhalb von ${waited} beantwortet, deshalb habe ich dort aufgehört.`,
    nothingPushedBranch: (branch) => `Es wurde nichts gepusht; ${branch} ist so wie vor diesem Lauf.`,
    noBranchYet: 'Es hatte sich noch nichts geändert, daher gibt es keinen Branch.',
    nothingPushedPull: (branch) =>
      `Es wurde nichts gepusht: ${branch} und sein Pull Request sind so wie vor diesem Lauf, und die unfertigen Änderungen wurden verworfen.`,
    keptInPull: (draft, number, branch) =>
      `Die bis dahin erledigte Arbeit steht im ${draft ? 'Entwurfs-Pull-Request' : 'Pull Request'} #${number} (Branch ${branch}).`,
    keptOnBranch: (branch) => `Die bis dahin erledigte Arbeit liegt auf dem Branch ${branch}.`,
    stepLimit: (steps) => `Das Schrittlimit (${steps} ${steps === 1 ? 'Schritt' : 'Schritte'}) wurde erreicht.`,
    timeLimit: (minutes) => `Das Zeitbudget (${minutes} min) ist aufgebraucht.`,
    costLimit: (cap, spent) => `Die Kostengrenze ($${cap}) wurde erreicht ($${spent} ausgegeben).`,
    tokenLimit: (tokens) => `Das Token-Budget (${tokens} Tokens) ist aufgebraucht.`,
    refused: 'Das Modell hat abgelehnt, diese Aufgabe weiter zu bearbeiten.',
    contextExhausted: 'Das Gespräch passt nicht mehr in das Kontextfenster des Modells.',
    modelApiFailed: (status, text) => `Die API des Modells ist auch nach erneuten Versuchen fehlgeschlagen${status ? ` (HTTP ${status})` : ''}: ${text}`,
    agentFailed: (text) => `Der Agent ist fehlgeschlagen: ${text}`,
  },
  finishedNoChange: 'Ich bin fertig, ohne eine Datei zu ändern.',
  draft: {
    regressed:
      'Prüfungen, die vor dieser Änderung bestanden haben, schlagen jetzt fehl (siehe Prüfung); eine Runde des Agenten, um sie zu beheben, war nicht erfolgreich.',
    protectedPaths: (paths) =>
      `Diese Änderung berührt geschützte Pfade (${paths}); eine Person mit Freigaberecht muss sie prüfen und freigeben, bevor sie als bereit markiert wird.`,
    runtimeMismatch: (runtimes) =>
      `Die Prüfungen konnten nicht auf der Laufzeitumgebung laufen, die das Repository verlangt, und zeigen daher nicht, was seine CI zeigen würde: ${runtimes}`,
  },
  failure: {
    interrupted: (times) =>
      `Der Worker, der ihn ausführte, wurde ${times}-mal mitten im Lauf beendet (abgeschossen oder abgestürzt), daher wurde er nicht noch einmal gestartet und hat kein Ergebnis. Erwähne mich, um es erneut zu versuchen; was er vorher gepusht hat, liegt auf seinem Branch.`,
    runFailed: (message) => `Der Lauf ist fehlgeschlagen: ${message}`,
    githubRefused: (status, text) =>
      `GitHub hat die Anfrage abgelehnt (HTTP ${status}): ${text}. Prüfe, ob GITHUB_TOKEN in diesem Repository pushen und Pull Requests öffnen darf.`,
    githubNotFound: 'GitHub hat das Repository oder den Branch nicht gefunden (HTTP 404). Prüfe den Namen des Repositorys und die Rechte des Tokens.',
    githubRejected: (text) => `GitHub hat den Pull Request abgelehnt (HTTP 422): ${text}.`,
    githubFailed: (status, text) => `Fehler bei GitHub (HTTP ${status}): ${text}. Versuche es in ein paar Minuten noch einmal.`,
    unexpected: (text) =>
      `Der Lauf ist unerwartet fehlgeschlagen: ${text}. Versuche es noch einmal; wenn es weiter fehlschlägt, kann ein Administrator die Logs zu diesem Job prüfen.`,
  },
  errors: {
    pushBlockedSecret: ({ branch, places, reword, held }) => {
      const kind = (k: SecretKind) => ('own' in k ? `den Wert von Wrenchs ${k.own}` : `etwas, das wie ${SECRET_RULES_DE[k.rule] ?? 'Zugangsdaten'} aussieht`);
      const where = places.map((place) =>
        'file' in place
          ? `\`${place.file}\` Zeile ${place.line} enthält ${kind(place.kind)}`
          : `die Nachricht von Commit ${place.message} (Zeile ${place.line}) enthält ${kind(place.kind)}`,
      );
      const fix = reword ? 'entferne die Zugangsdaten (und formuliere die Nachricht dieses Commits neu)' : 'entferne die Zugangsdaten';
      const on = held?.host ? `auf dem Wrench-Worker \`${held.host}\`` : 'auf der Wrench-Maschine';
      const kept = held
        ? ` Die Commits liegen ${on} als zurückgehaltenes Bundle \`${held.id}\`${held.days ? `, ${held.days} Tage lang` : ''} (nur für Wrenchs Benutzer lesbar; \`wrench doctor\` auf ${held.host ? 'diesem' : 'dem'} Worker listet sie auf); ein Operator holt sie in einem Klon des Repositorys mit ${fetchHeld(held.id, held.ref)}.`
        : '';
      return `Ich habe \`${branch}\` nicht gepusht: ${where.join('; ')}. Nichts aus diesem Lauf hat diese Maschine verlassen; ${fix} und erwähne mich, um es erneut zu versuchen.${kept}`;
    },
    githubNotConfigured: ({ need }) =>
      need === 'review'
        ? 'Um einen Pull Request zu reviewen, braucht Wrench einen GitHub-Zugang; setze GITHUB_TOKEN oder, für eine GitHub App, GITHUB_APP_ID und GITHUB_APP_PRIVATE_KEY_PATH.'
        : 'Es ist kein GitHub-Zugang eingerichtet, deshalb kann ich keinen Pull Request öffnen. Setze GITHUB_TOKEN oder, für eine GitHub App, GITHUB_APP_ID und GITHUB_APP_PRIVATE_KEY_PATH.',
    repositoryNotFound: ({ repository }) =>
      `${repository} wurde nicht gefunden, oder Wrenchs GitHub-Zugang darf es nicht lesen: prüfe das mit diesem Channel verknüpfte Repository (wrench.config.yml) und ob Wrench Zugriff darauf hat.`,
    baseBranchNotFound: ({ repository, branch }) => `${repository} hat keinen Branch "${branch}"; nenne einen vorhandenen Basis-Branch.`,
    noDefaultBranch: 'Das Repository hat keinen Standard-Branch (ist es leer?); pushe einen ersten Commit oder nenne einen Basis-Branch.',
    branchNotFound: ({ repository, branch }) => `Den Branch "${branch}" gibt es in ${repository} nicht mehr; starte stattdessen eine neue Aufgabe.`,
    branchExists: ({ repository, branch }) => `Den Branch "${branch}" gibt es in ${repository} schon; setze ihn fort oder wähle einen anderen Namen.`,
    branchMoved: ({ branch, git }) =>
      git
        ? `Ich konnte den Branch "${branch}" nicht pushen: der Remote-Branch hat Commits, die dieser Workspace nicht hat (${git}).`
        : `Ich konnte den Branch "${branch}" nicht pushen: der Remote-Branch hat sich geändert, seit dieser Workspace ihn geholt hat.`,
    pushFailed: ({ branch, when, git }) =>
      when === 'pushing'
        ? `Ich konnte den Branch "${branch}" nicht pushen: ${git}; prüfe, ob der GitHub-Zugang in dieses Repository pushen darf.`
        : `Ich konnte den Branch "${branch}" nicht pushen: ${when === 'listing' ? 'ich konnte die Branches des Remotes vor dem Pushen nicht lesen' : 'der Push ließ sich nicht überprüfen'} (${git}).`,
    pushNotThere: ({ branch, sha, remoteSha }) =>
      remoteSha
        ? `Ich konnte den Branch "${branch}" nicht pushen: der Remote-Branch steht auf ${remoteSha}, nicht auf ${sha}.`
        : `Ich konnte den Branch "${branch}" nicht pushen: den Remote-Branch gibt es nicht, er sollte auf ${sha} stehen.`,
    branchConflict: ({ branch, side, files }) =>
      `Jemand hat nach \`${branch}\` gepusht, während ich gearbeitet habe, und meine Änderungen kollidieren mit den seinen${codeList(files, (list) => ` (${list})`)}. Meine Arbeit liegt auf dem Branch \`${side}\`: führe sie von Hand zusammen, oder erwähne mich hier, damit ich sie auf dem aktuellen Branch neu mache.`,
    revertConflict: ({ sha, files }) =>
      `Der Revert von ${sha} kollidiert mit späteren Änderungen in ${files.join(', ') || 'einigen Dateien'}; reverte ihn von Hand oder bitte Wrench, genau diese Änderungen rückgängig zu machen.`,
    diskFull: ({ kept }) =>
      kept
        ? `Die Platte von Wrenchs Datenverzeichnis ist vollgelaufen (kein Speicherplatz mehr), deshalb habe ich vor dem Ende aufgehört. Nichts ist verloren: die bisherige Arbeit (was ich committet hatte und was nicht) liegt ${kept.host ? `auf dem Wrench-Worker \`${kept.host}\`` : 'auf dem Wrench-Rechner'} in \`$WRENCH_DATA_DIR/held/${kept.id}.tree\`${kept.days ? ` für ${kept.days} Tage` : ''}. Sobald jemand aus dem Betrieb Platz schafft, erwähne mich, um es erneut zu versuchen.`
        : 'Die Platte von Wrenchs Datenverzeichnis ist voll (kein Speicherplatz mehr), daher konnte der Lauf seine Arbeit nicht beginnen; nichts wurde geändert. Sobald jemand aus dem Betrieb Platz schafft, erwähne mich, um es erneut zu versuchen.',
  },
  answer: answerDe,
  review: {
    reviewOf: (subject, count) => `:mag: Review von ${subject}${count ? `: ${count}` : ''}`,
    onBranch: (repository, branch) => `${repository} auf ${branch}`,
    noFindingsCount: 'keine Befunde',
    findingsCount: (total, counts) => `${total} ${total === 1 ? 'Befund' : 'Befunde'}: ${counts}`,
    findings: 'Befunde',
    noFindings: 'Keine Befunde: Ich habe nichts gefunden, das zu beanstanden wäre.',
    none: 'Keine.',
    focusAreas: 'Schwerpunkte',
    suggestedFix: 'Vorgeschlagene Korrektur:',
    onGitHub: 'Auf GitHub',
    posted: (inline, url) =>
      `Als Review nur mit Kommentaren gepostet, mit ${inline} ${inline === 1 ? 'Inline-Kommentar' : 'Inline-Kommentaren'}${url ? `: ${url}` : '.'}`,
    couldNotPost: (error) => `Ich konnte den Review nicht auf GitHub posten (${error}); die Befunde oben sind vollständig.`,
    noReport: 'Der Review endete ohne Bericht.',
    incomplete: 'Der Review ist unvollständig.',
    noSuchPull: (repository, number) => `:grey_question: \`${repository}\` hat keinen Pull Request #${number}, es gibt also nichts zu reviewen.`,
    checkNumber: (number) =>
      `Prüfe die Nummer, oder nenne das Repository, wenn der Pull Request woanders liegt: \`review PR #${number} in owner/repo\` (oder füge seine URL ein).`,
  },
  notQueued: {
    task: 'Aufgabe',
    triage: 'Triage',
    invalidJob: (what, error) =>
      `:x: Ich konnte diese ${what} nicht einreihen: ${error}. Das ist ein Fehler in Wrench, nicht etwas, das du falsch gemacht hast; mich noch einmal zu erwähnen hilft nicht. Bitte sag einem Administrator Bescheid (die Details stehen im Log von Wrench).`,
    queueUnavailable: (what) =>
      `:x: Ich konnte diese ${what} nicht einreihen, weil meine Job-Warteschlange (Redis) nicht erreichbar ist. Erwähne mich in einer Minute noch einmal; wenn es weiter fehlschlägt, bitte einen Administrator, \`wrench doctor\` auszuführen.`,
    unexpected: (what) =>
      `:x: Ich konnte diese ${what} wegen eines unerwarteten Fehlers nicht einreihen. Erwähne mich in einer Minute noch einmal; wenn es weiter fehlschlägt, bitte einen Administrator, ins Log von Wrench zu schauen.`,
  },
  steered:
    'An den laufenden Agenten weitergegeben: Er liest das vor seinem nächsten Modellaufruf, ohne neu anzufangen. Endet der Lauf vorher, erwähne mich hier, damit daraus eine Folgeaufgabe wird.',
  steeredFromPage: (user) => `<@${user}> hat dem laufenden Agenten von der Laufseite aus geschrieben:`,
  steeringUnread: (count) =>
    `${count === 1 ? 'Diese Nachricht hat' : 'Diese Nachrichten haben'} den Lauf erst nach seinem letzten Schritt erreicht, er hat sie also nicht gelesen:`,
  steeringWrote: (name) => `${name} schrieb:`,
  personInThread: 'Eine Person im Thread',
  steeringFollowUp: 'Erwähne mich hier mit dem, was du noch möchtest, dann erledige ich es als Folgeaufgabe.',
  nothingRunning: 'In diesem Thread läuft gerade nichts.',
  restartedAfterInterruption: ':arrows_counterclockwise: Wrench wurde nach einer Unterbrechung neu gestartet: Dieser Lauf beginnt noch einmal von vorn.',
  restartedFromBranch: (branch: string) =>
    `:arrows_counterclockwise: Wrench wurde nach einer Unterbrechung neu gestartet: Dieser Lauf macht mit den Commits weiter, die sein früherer Versuch nach \`${branch}\` gepusht hat.`,
  help: (me) =>
    [
      `Hallo! Erwähne ${me} mit einer Entwicklungsaufgabe, dann arbeite ich am Repository dieses Channels und öffne einen Pull Request.`,
      `Zum Beispiel: \`${me} füge Tests für formatBytes in src/lib/format.ts hinzu, die 0, 1023 und 1024 Bytes abdecken; npm test muss bestehen\``,
      `Was ich sonst noch mache: \`${me} review PR #42\`, \`${me} behebe den TypeError in src/cart.ts:88\`, \`${me} triage: Checkout liefert seit 14:05 Fehler 500\`.`,
    ].join('\n'),
  noRepository: (config) =>
    `Dieser Channel ist noch mit keinem Repository verknüpft, daher weiß ich nicht, wo ich arbeiten soll.\nNenne eines in deiner Nachricht (zum Beispiel \`in acme/web\`) oder verknüpfe den Channel in \`wrench.config.yml\`:\n${config}`,
  repositoryNotAllowed: (repository) =>
    `Ich darf nicht an ${repository} arbeiten.\nEin Administrator kann es erlauben, indem er es (oder ein Muster wie \`owner/*\`) unter \`repos:\` in \`wrench.config.yml\` einträgt.`,
  sharedChannel:
    'Wrench nimmt hier keine Arbeit in Slack-Connect-Channels an. Ein Administrator kann es mit `access.sharedChannels: true` in `wrench.config.yml` erlauben.',
  instructionTooLong: (length, max) =>
    `Diese Anweisung ist ${length} Zeichen lang; ich nehme höchstens ${max}. Kürze sie, oder hänge langes Material (Logs, Daten) als Datei an und verweise darauf.`,
  takingFailed:
    ':x: Beim Annehmen dieser Anfrage ist etwas schiefgegangen, daher wurde nichts gestartet. Erwähne mich in einer Minute noch einmal; wenn es weiter passiert, kann ein Administrator `wrench doctor` ausführen.',
  redisLostRetaken:
    ':warning: Wrenchs Redis hat seine Daten verloren (es wurde leer neu gestartet), nachdem ich diese Anfrage angenommen hatte; ihr Platz in der Warteschlange ging verloren. Ich hatte eine Kopie behalten und nehme sie jetzt noch einmal von vorn an; du musst nichts tun.',
  redisLostWhileRunning:
    ':warning: Wrenchs Redis hat seine Daten verloren (es wurde leer neu gestartet), während diese Anfrage lief. Das Ergebnis kann trotzdem noch hier ankommen; wenn nicht in ein paar Minuten, frag bitte noch einmal.',
  runSilentEnded: (minutes, limit) =>
    `:warning: Dieser Lauf hat vor ${minutes} Min. begonnen und ist beendet, aber weder ein Ergebnis noch ein Fehler ist in diesem Thread angekommen (sein Zeitlimit beträgt ${limit} Min.). Auf Wrenchs Seite ist etwas schiefgegangen; frag bitte noch einmal.`,
  runSilentRunning: (minutes, limit) =>
    `:warning: Dieser Lauf hat vor ${minutes} Min. begonnen, länger als sein Zeitlimit von ${limit} Min., und hat noch kein Ergebnis geschickt. Er hängt vielleicht: Das Ergebnis kann noch hier ankommen; wenn nicht, stoppe ihn und frag noch einmal.`,
  mentionDropped: (attempts) =>
    `:x: Ich konnte diese Anfrage nicht annehmen: Die Bearbeitung ist ${attempts}-mal fehlgeschlagen. Es wurde nichts gestartet; erwähne mich noch einmal, um es erneut zu versuchen.`,
  notAuthorized:
    'Du stehst nicht auf der Liste der Personen, die hier Arbeit mit Wrench starten dürfen. Bitte einen Administrator, deine Slack-User-ID unter `access.users` in `wrench.config.yml` einzutragen.',
  triage: {
    queued: (repository) => `:mag: Triage eingereiht: Ich untersuche ${repository} nur lesend (die letzten Änderungen und den Code) und berichte hier.`,
    working: (detail) => `:mag: Triage: ${detail}`,
    investigating: 'Untersuchung läuft',
    finished: (elapsed) => `:white_check_mark: Triage nach ${elapsed} abgeschlossen`,
    failedAfter: (elapsed) => `:x: Triage nach ${elapsed} fehlgeschlagen`,
    cancelled: ':no_entry_sign: Triage abgebrochen',
    failed: (message) => `:x: Die Triage ist fehlgeschlagen. ${message}`,
    reportOf: (subject) => `:mag: *Triage von ${subject}*`,
    reportSummary: (subject, verdict) => `Triage von ${subject}: ${verdict}`,
    verdict: '*Urteil* (Lesart des Agenten):',
    whatIsGoingOn: '*Was passiert* (Lesart des Agenten)',
    noGoodLead: '*Keine gute Spur.* Ich habe keine Belege gefunden, die auf eine Ursache zeigen, also rate ich keine.',
    hypothesis: '*Hypothese* (des Agenten; keine stützenden Belege gefunden, geringe Sicherheit)',
    likelyCause: (confidence) => `*Wahrscheinliche Ursache* (Lesart des Agenten, Sicherheit: *${confidence}*)`,
    confidence: { low: 'gering', medium: 'mittel', high: 'hoch' },
    evidence: '*Belege* (wie der Agent sie anführt; die Links sind von Wrench)',
    suspectCommits: (branch) => `*Verdächtige Commits* (wahrscheinlichster zuerst, auf ${branch}; die Gründe sind die des Agenten)`,
    notOnBaseBranch: '_(nicht auf dem Basis-Branch gefunden)_',
    ruledOut: '*Ausgeschlossen* (vom Agenten)',
    nextSteps: '*Nächste Schritte* (Vorschläge des Agenten)',
    couldNotRead: '*Nicht lesbar* (der Bericht stützt sich auf die übrigen Belege)',
    openFixPr: 'Fix-PR öffnen',
    revert: (sha) => `${sha} reverten`,
    revertQuestion: (sha) => `${sha} reverten?`,
    revertExplained: (sha, branch) =>
      `Wrench revertet ${sha} auf einem neuen Branch von ${branch}, führt die Tests aus und öffnet einen Entwurfs-Pull-Request. Nichts wird gemergt.`,
    openRevertPr: 'Revert-PR öffnen',
    dismiss: 'Verwerfen',
    approversOnly: 'Nur Personen mit Freigaberecht können diese Knöpfe verwenden.',
    actions: 'Triage-Aktionen',
    dismissedBy: (user) => `:no_entry_sign: Von <@${user}> verworfen`,
    approversOnlyAction: (action) =>
      `Nur Personen mit Freigaberecht können „${action}“ bei einer Triage verwenden. Frag jemanden, der in wrench.config.yml unter \`access.approvers\` steht.`,
    revertAlready: (sha) => `Ein Revert von ${sha} wurde aus dieser Triage schon angefordert.`,
    fixAlready: 'Aus dieser Triage wurde schon ein Fix-Lauf gestartet; verfolge ihn im Thread.',
    reverting: (sha, base, user) => `:rewind: Revert von ${sha} auf ${base} auf Wunsch von ${user}: Branch wird vorbereitet`,
    revertDoing: (sha, what) => `:rewind: Revert von ${sha}: ${what}`,
    revertWorking: 'in Arbeit',
    revertFailed: (sha, message) => `:x: Der Revert von ${sha} ist fehlgeschlagen: ${message}`,
    revertOpened: (number, sha, url, verdict) => `:rewind: Entwurfs-PR #${number} mit dem Revert von ${sha} geöffnet: ${url}\n${verdict}`,
    revertNoChecks: 'Nach dem Revert liefen keine Prüfungen.',
    revertOpenAlready: (sha, number, url) => `:information_source: ${sha} wird schon in PR #${number} revertet: ${url}. Nichts Neues wurde gepusht.`,
    revertNotOnBase: (sha, base) =>
      `:warning: ${sha} ist nicht mehr auf ${base} (per Force-Push entfernt oder nie gemergt), es gibt also nichts zu reverten. Nichts wurde gepusht.`,
    revertConflict: (sha, why) => `:warning: Ich konnte ${sha} nicht sauber reverten: ${why} Nichts wurde gepusht.`,
    revertBranchExists: (branch) =>
      `:information_source: Einen Branch ${branch} gibt es schon, ohne offenen Pull-Request. Lösche ihn (oder öffne einen PR daraus) und drücke noch einmal auf Revert. Nichts wurde gepusht.`,
  },
  cancelNotAllowed: 'Nur wer diesen Lauf angefordert hat oder eine Person mit Freigaberecht kann ihn abbrechen.',
  github: {
    closed: (pull, by, merged) =>
      `${pull.link(`Pull Request #${pull.number}`)} wurde von @${by} ${merged ? 'gemergt' : 'ohne Merge geschlossen'}. Die Arbeit dieses Threads ist erledigt; erwähne mich hier, um etwas Neues zu beginnen (es bekommt einen neuen Branch und einen neuen Pull Request).${merged ? '' : ' Wird der Pull Request wieder geöffnet, setzt dieser Thread ihn fort.'}`,
    reopenedBusy: (pull, by) =>
      `${pull.link(`Pull Request #${pull.number}`)} wurde von @${by} wieder geöffnet, aber dieser Thread hat seitdem andere Arbeit begonnen und setzt diesen Pull Request deshalb hier nicht fort. Kommentiere den Pull Request und erwähne mich darin, oder beginne einen neuen Thread, um daran zu arbeiten.`,
    reopened: (pull, by, branch) =>
      `${pull.link(`Pull Request #${pull.number}`)} wurde von @${by} wieder geöffnet: Dieser Thread setzt ihn fort${branch ? ` auf ${branch}` : ''}. Erwähne mich hier oder kommentiere den Pull Request, um weiterzumachen.`,
    commentLead: (kind, author, pull, place) =>
      `@${author} hat in ${pull.link(`Pull Request #${pull.number}`)}${place ? ` zu ${place}` : ''} ${{ review: 'Änderungen angefordert', 'review-comment': 'kommentiert', comment: 'geschrieben' }[kind]}:`,
    reviewLead: (author, pull, changesRequested, count) =>
      `@${author} hat ${pull.link(`Pull Request #${pull.number}`)} mit ${count} ${count === 1 ? 'Kommentar' : 'Kommentaren'} ${changesRequested ? 'reviewt und Änderungen angefordert' : 'reviewt'}:`,
    place: (path, line, startLine) =>
      line === null ? path : startLine !== null && startLine !== line ? `${path} Zeilen ${startLine}–${line}` : `${path} Zeile ${line}`,
    continuing: (branch) => `Ich mache damit auf ${branch ?? 'dem Branch'} weiter.`,
    baseFails: (checks, count, pull, base, baseSha) =>
      `${checks} ${count > 1 ? 'sind' : 'ist'} in ${pull.link(`Pull Request #${pull.number}`)} fehlgeschlagen, ${count > 1 ? 'schlagen' : 'schlägt'} aber auch auf ${base} (${baseSha}) fehl; diese Änderung hat das also nicht verursacht, und ich starte keine Fix-Runde. Behebe es zuerst auf ${base}, oder erwähne mich hier und sag, was zu tun ist.`,
    fixLimit: (checks, count, number, done) =>
      `${checks} ${count > 1 ? 'schlagen' : 'schlägt'} in Pull Request #${number} nach ${done} ${done === 1 ? 'Fix-Runde' : 'Fix-Runden'} immer noch fehl (das Limit, \`github.maxFixRounds\`), deshalb versuche ich es nicht noch einmal; jetzt braucht es einen Menschen.`,
    failingRun: 'Der fehlgeschlagene CI-Lauf.',
    noEvidence: (checks, count, pull, head) =>
      `${checks} ${count > 1 ? 'sind' : 'ist'} in ${pull.link(`Pull Request #${pull.number}`)} (Head ${head}) fehlgeschlagen, aber ich konnte nichts darüber lesen, warum (kein Log, keine Ausgabe, keine Annotationen), deshalb setze ich keine Fix-Runde auf eine Vermutung. Öffne den fehlgeschlagenen Check und sag mir hier, was ich beheben soll.`,
    fixRound: (checks, count, pull, head, round, of, earlier) =>
      `${checks} ${earlier ? (earlier.count > 1 ? 'schlagen' : 'schlägt') : count > 1 ? 'sind' : 'ist'} in ${pull.link(`Pull Request #${pull.number}`)} (Head ${head}) ${earlier ? `nach Fix-Runde ${earlier.round} immer noch fehl` : 'fehlgeschlagen'}. Fix-Runde ${round} von ${of}: Ich sehe mir an, was die CI gemeldet hat.`,
    passed: (checks, count, pull, head, round) =>
      `${checks} ${count > 1 ? 'bestehen' : 'besteht'} in ${pull.link(`Pull Request #${pull.number}`)} (Head ${head}) nach Fix-Runde ${round}.`,
    statusFailed: (context, pull, head, description, details) =>
      `${context} hat in ${pull.link(`Pull Request #${pull.number}`)} (Head ${head}) einen Fehlschlag gemeldet${description ? `: „${description}“` : ''}.${details ? ` Details: ${details('der CI-Lauf')}.` : ''} Die Logs dieser CI kann ich von hier aus nicht lesen, deshalb starte ich keine Fix-Runde auf gut Glück: Füge die fehlgeschlagene Ausgabe hier ein oder sag mir, was ich beheben soll.`,
    couldNotAct: (kind, by, pull, error) =>
      `Ich konnte auf ${EVENT_WORDS_DE[kind] ?? 'das Ereignis'}${by ? ` von @${by}` : ''} in ${pull.link(`Pull Request #${pull.number}`)} nicht reagieren: ${error}. Sobald das behoben ist, liefere es in den Einstellungen der GitHub App erneut aus (Advanced → Recent Deliveries), oder sag hier, was zu tun ist.`,
  },
};
