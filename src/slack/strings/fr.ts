import { schedulesFr } from '../../schedules/schedule-strings.js';
import { answerFr } from '../../answers/answer-strings.js';
import { codeList, fetchHeld } from '../../error-words.js';
import type { SecretKind } from '../../security/secret-kind.js';
import { setupEgressLine } from '../../verification/render-verification.js';
import type { EgressStrings } from '../../verification/verification-strings.js';
import type { Catalogue } from './en.js';

/** A secretlint rule's credential ("ce qui ressemble à …"). */
const SECRET_RULES_FR: Record<string, string> = {
  github: 'un jeton GitHub',
  slack: 'un jeton ou une URL de webhook Slack',
  anthropic: 'une clé d’API Anthropic',
  openai: 'une clé d’API OpenAI',
  aws: 'un identifiant AWS',
  gcp: 'un identifiant Google Cloud',
  privatekey: 'une clé privée',
  'secp256k1-privatekey': 'une clé privée',
  basicauth: 'un mot de passe dans une URL',
  'database-connection-string': 'un mot de passe de base de données',
  npm: 'un jeton npm',
  sendgrid: 'une clé d’API SendGrid',
  stripe: 'une clé Stripe',
};

/** What the egress policy refused during setup (said in the checks and in the progress line). */
const egressWords: EgressStrings = {
  egressNotAllowed: (target) => `${target} : absent de la liste des destinations autorisées (sandbox.egress.allow)`,
  egressMetadata: (target, address) => `${target} : se résout en ${address}, l’adresse de métadonnées du cloud`,
  egressNonPublic: (target, address) => `${target} : se résout en ${address}, qui n’est pas une adresse publique (loopback, privée ou link-local)`,
  egressUpstreamRefused: (target, upstream, answer) => `${target} : le proxy amont ${upstream} a répondu ${answer}`,
  egressUpstreamUnreachable: (target, upstream, answer) => `${target} : le proxy amont ${upstream} est injoignable (${answer})`,
  setupCouldNotReach: (refusal, more) =>
    `L’installation n’a pas pu joindre cette destination : ${refusal}${more.length ? ` (et ${more.length} autres refusées : ${more.join(', ')})` : ''}.`,
};

/** How a command ended, after its name: "`npm ci` a renvoyé le code de sortie 1". */
const exit = (timedOut: boolean, exitCode: number | null) =>
  timedOut ? 'a dépassé le délai' : exitCode === null ? 'n’a renvoyé aucun code de sortie' : `a renvoyé le code de sortie ${exitCode}`;

/** The GitHub events a thread can be told Wrench could not act on, with their article. */
const EVENT_WORDS_FR: Record<string, string> = {
  comment: 'le commentaire',
  'review-comment': 'le commentaire de revue',
  review: 'la revue',
  'check-failed': 'le check en échec',
  'check-passed': 'le check réussi',
  'status-failed': 'le statut de commit en échec',
  closed: 'la fermeture de la pull request',
};

/**
 * French, with "vous"; a space before : ; ? ! and inside « », and the typographic apostrophe. What is missing here is
 * said in English.
 */
export const fr: Catalogue = {
  categories: {
    testing: 'Tests',
    'data-analysis': 'Analyse de données',
    'web-scraping': 'Extraction de données web',
    'code-review': 'Revue de code',
    'bug-fixing': 'Correction de bug',
    feature: 'Fonctionnalité',
    refactoring: 'Refactorisation',
    'incident-triage': 'Triage d’incident',
    question: 'Question sur le code',
  },
  complexity: { simple: 'simple', medium: 'moyenne', complex: 'complexe' },
  taskOn: (category, repository, status) => `Tâche (${category}) sur ${repository} : ${status}`,
  where: 'Où :',
  constraints: 'Contraintes :',
  doneWhen: 'Terminé quand :',
  cancel: 'Annuler',
  queued: (position) => `:hourglass_flowing_sand: En file d’attente${position ? ` (position ${position})` : ''}`,
  queuedBehindThread: ':hourglass_flowing_sand: En attente derrière l’exécution déjà en cours dans ce fil',
  statusLine: {
    reading: 'lit votre demande…',
    readingSteps: (repository) => ['Je lis votre demande…', `Je regarde ${repository}…`],
    waitingForWorker: 'attend un worker libre…',
    // The details it gets begin with "en attente": "Wrench est en attente …".
    waitingOn: (detail) => `est ${detail}…`,
  },
  addDetails: 'Ajouter des détails',
  startAnyway: 'Démarrer quand même',
  needMore: 'Avant de commencer, il me faut un peu plus d’informations pour ne pas deviner :',
  answerHere: 'Répondez ici dans le fil, ou cliquez sur *Ajouter des détails*.',
  startingAnyway: (user) => `Je démarre quand même, à la demande de <@${user}>.`,
  enoughToStart: 'Merci, cela me suffit pour commencer.',
  requestGone: 'Cette demande a déjà démarré ou a expiré.',
  requestBusy: 'Quelqu’un est en train de démarrer cette demande ou de la compléter. Si je pose de nouveau une question, répondez à la nouvelle carte.',
  replyWhileStarting:
    'Cette demande était déjà en train de démarrer quand votre message est arrivé, il n’y a donc pas été ajouté. Une fois l’exécution en cours, répondez ici pour le transmettre à l’agent, ou mentionnez-moi pour en faire une demande de suivi.',
  clarifying: {
    target: {
      testing: {
        question: 'Que doivent couvrir les tests ? Indiquez le module, la fonction ou le comportement à tester.',
        placeholder: '`formatBytes` dans src/lib/format.ts : 0, 1023, 1024, entrée négative',
      },
      'code-review': {
        question: 'Que dois-je relire ? Donnez un numéro ou un lien de PR, une branche ou les fichiers.',
        placeholder: 'PR #123 dans acme/api',
      },
      'data-analysis': {
        question: 'Quelles données dois-je analyser ? Indiquez le fichier, la table ou l’export.',
        placeholder: 'data/orders-2026-09.csv',
      },
      'web-scraping': {
        question: 'Sur quels sites ou quelles pages dois-je collecter ? Donnez les URL et ce qu’il faut collecter sur chacune.',
        placeholder: 'https://example.com/pricing : nom de l’offre, prix mensuel, devise',
      },
      refactoring: {
        question: 'Quel code dois-je refactoriser ? Indiquez les fichiers, le module ou les fonctions.',
        placeholder: 'src/api/handlers.ts',
      },
      'bug-fixing': { question: 'Quelle partie du produit est touchée ?', placeholder: 'la page de paiement, en payant avec une carte enregistrée' },
      feature: {
        question: 'Que dois-je construire exactement, et où cela doit-il aller ?',
        placeholder: 'une option `--json` pour la commande `status` dans src/cli/status.ts',
      },
      'incident-triage': { question: 'Quel service ou système est touché ?', placeholder: 'search-api (dépôt acme/search)' },
      question: {
        question: 'Que voulez-vous savoir sur le code ? Indiquez la fonctionnalité, le fichier ou le comportement.',
        placeholder: 'où est configurée la limite de débit de /search',
      },
    },
    failingTests: {
      question: 'Comment les tests échouent-ils ? Collez les noms des tests en échec et l’assertion ou la sortie d’erreur.',
      placeholder: 'test/cart/total.test.ts « applies coupon » échoue sur main : expected 10, received 9.99',
    },
    incidentSymptoms: {
      question: 'Que constatez-vous ? Quel service, depuis quand, et quels symptômes (taux d’erreur, codes de statut, alertes, un déploiement récent) ?',
      placeholder: 'checkout-api : des 502 sur POST /orders depuis 14:05 UTC, juste après la version 3.4.1',
    },
    observedProblem: {
      question:
        'Qu’est-ce qui ne va pas exactement ? Collez le message d’erreur ou la trace de pile, dites ce que vous attendiez et ce qui s’est passé à la place, et comment le reproduire.',
      placeholder: 'Attendu : un seul débit par commande. Constaté : un double clic sur « Payer » débite la carte deux fois.',
    },
    codeToTest: { question: 'Où se trouve le code à tester ? Indiquez le fichier ou le répertoire.', placeholder: 'src/lib/format.ts' },
    location: {
      question: 'Où cela se produit-il ? Indiquez le fichier, la fonction, l’endpoint ou la page.',
      placeholder: 'src/payments/charge.ts, `createCharge` (POST /checkout)',
    },
    rewriteScope: {
      question: 'Une réécriture complète est trop vaste pour une seule tâche. Par quel module ou service dois-je commencer, et que doit-il continuer à faire ?',
      placeholder: 'uniquement l’endpoint /search, même API, les tests existants doivent passer',
    },
    scope: (subject) => ({
      question: `${subject ? `« ${subject} » est` : 'C’est'} un vaste domaine. Quelle première partie délimitée dois-je construire, et qu’est-ce qui est hors périmètre ?`,
      placeholder: 'un endpoint de paiement avec Stripe Checkout, sans remboursements ni abonnements pour l’instant',
    }),
    requirements: { question: 'Que doit-il faire ? Listez les exigences, une par ligne.', placeholder: '1. …\n2. …' },
    analysisQuestions: {
      question: 'À quelles questions l’analyse doit-elle répondre ? Indiquez les métriques ou les ventilations, et le résultat attendu.',
      placeholder: 'chiffre d’affaires par jour, les 10 produits qui rapportent le plus ; un tableau Markdown et un graphique en barres PNG',
    },
    refactoringGoal: {
      question: 'Qu’est-ce qui doit être différent une fois terminé ? Indiquez des changements concrets et les vérifications qui doivent tenir.',
      placeholder: 'un fichier par ressource sous src/api/handlers/, aucun changement de comportement, les tests existants passent',
    },
    testsProve: {
      question: 'Que doivent démontrer les tests ? Indiquez les cas ou la couverture à atteindre.',
      placeholder: 'chaque fonction exportée a un test ; couverture des branches de src/lib/ d’au moins 90 %',
    },
    done: {
      question: 'Comment saurons-nous que c’est terminé ? Indiquez un résultat mesurable ou les vérifications qui doivent passer.',
      placeholder: 'la page se charge en moins de 1 s avec 1 000 lignes ; `npm test` passe',
    },
    focusAreas: {
      question: 'Sur quoi la revue doit-elle porter ?',
      placeholder: 'injection SQL et contrôles d’autorisation dans les nouvelles routes d’administration',
    },
    findingsFormat: { question: 'Comment dois-je présenter les remarques ?', placeholder: 'Markdown, gravité Critical/Major/Minor' },
    outputFormat: { question: 'Sous quel format voulez-vous le résultat ?', placeholder: 'un tableau Markdown et un graphique PNG' },
    rateLimit: { question: 'À quel rythme puis-je demander les pages ?', placeholder: 'au plus 1 requête par seconde' },
    errorHandling: {
      question: 'Que faire quand une requête échoue ou expire ?',
      placeholder: 'réessayer deux fois avec un délai croissant, puis passer la page',
    },
    logging: { question: 'Que faut-il journaliser ?', placeholder: 'chaque URL en échec, avec son code de statut et la raison' },
    more: (element) => `Pouvez-vous m’en dire plus sur « ${element} » ?`,
  },
  modal: { title: 'Ajouter des détails', submit: 'Démarrer', close: 'Annuler', instruction: 'Votre instruction' },
  onlyRequesterAddsDetails: 'Seule la personne qui a fait la demande, ou un approbateur, peut ajouter des détails ici.',
  onlyRequesterStarts: 'Seule la personne qui a fait la demande, ou un approbateur, peut démarrer cette tâche.',
  whichRepository:
    'Ce canal travaille sur plusieurs dépôts, et je ne sais pas pour lequel est cette demande. Cliquez sur le bon, ou répondez ici en le nommant.',
  repositoryChosen: (user, repository) => `<@${user}> a choisi *${repository}* : je commence là.`,
  onlyRequesterChoosesRepository: 'Seule la personne qui a fait la demande, ou un approbateur, peut choisir le dépôt.',
  nameTheRepository: (repositories) =>
    `Je ne sais toujours pas pour quel dépôt c’est : cliquez sur l’un des boutons ci-dessus, ou nommez l’un de ${repositories} dans votre réponse.`,
  tooLarge: (step) =>
    `C’est trop vaste pour être bien fait en une seule fois, je ne le démarre donc pas tel quel. Une première étape délimitée que je pourrais faire :\n> ${step}\nMentionnez-moi avec celle-ci (ou votre propre première étape) dans ce fil, ou cliquez sur *Démarrer quand même*.`,
  questionIntro: (requester) => `<@${requester}> J’ai une question avant de continuer :`,
  decideYourself: 'À vous de décider',
  deadline: (hasButtons, date) =>
    `${hasButtons ? 'Cliquez sur un bouton ou répondez' : 'Répondez'} dans ce fil, ou laissez-moi décider ; l’exécution est en pause en attendant. Sans réponse d’ici ${date}, je termine avec ce que j’ai.`,
  asked: (requester) => `<@${requester}> J’ai demandé :`,
  answered: (by, answer) => `<@${by}> a répondu : ${answer}`,
  cancelledBy: (user) => `_Annulé par <@${user}> avant l’arrivée d’une réponse._`,
  noAnswerInTime: '_Aucune réponse n’est arrivée à temps, je termine donc avec ce que j’ai._',
  reminder: (requester, question, date) =>
    `<@${requester}> Petit rappel : j’attends toujours votre réponse à ma question ci-dessus (${question}). Sans réponse d’ici ${date}, je termine avec ce que j’ai.`,
  dateAt: 'à',
  questionStale: 'Cette question a déjà reçu une réponse, ou elle a expiré.',
  questionSettled: (outcome: string) => `Cette question est déjà réglée : ${outcome}`,
  questionNotYours: (requester) =>
    `Merci ! J’ai posé cette question à <@${requester}>, j’attends donc sa réponse (ou celle d’un approbateur) ; votre message n’a pas été pris comme réponse.`,
  lateAnswer: (question, date, mention) =>
    `Ma question (« ${question} ») a expiré sans réponse (${date}) : cette exécution s’est donc terminée avec ce qu’elle avait, et votre message n’a pas été pris comme réponse. Pour continuer, mentionnez-moi dans ce fil avec votre réponse (${mention} suivi de celle-ci) : cela lance une exécution de suivi qui reprend le travail de ce fil.`,
  questionExpired:
    ':warning: Cette exécution attendait une réponse à sa question, mais la conversation enregistrée a expiré : elle ne peut donc pas continuer.',
  questionExpiredNext: 'Mentionnez-moi dans ce fil pour recommencer ; le travail poussé avant la question se trouve sur la branche.',
  phases: {
    queued: ':hourglass_flowing_sand: En file d’attente',
    preparing: ':package: Préparation de l’espace de travail',
    working: ':hammer_and_wrench: Travail en cours',
    waiting: ':question: En attente d’une réponse',
    verifying: ':test_tube: Vérification',
    publishing: ':outbox_tray: Ouverture de la pull request',
    done: ':white_check_mark: Terminé',
    failed: ':x: Échec',
    cancelled: ':no_entry_sign: Annulé',
  },
  after: (elapsed) => `après ${elapsed}`,
  usually: (elapsed, typical) => `${elapsed} (d’habitude ${typical})`,
  seeEveryStep: 'voir toutes les étapes',
  opened: (draft, pull, counts) => `${draft ? ':warning:' : ':white_check_mark:'} Pull request${draft ? ' en brouillon' : ''} ouverte : ${pull}${counts}`,
  updated: (draft, pull, counts) => `:arrows_counterclockwise: Pull request${draft ? ' en brouillon' : ''} mise à jour : ${pull}${counts}`,
  answeredNoChange: ':speech_balloon: Aucun fichier modifié, donc pas de pull request. Ma réponse :',
  stoppedWithPull: (draft, pull, counts) =>
    `:warning: Arrêt anticipé ; le travail effectué jusqu’ici se trouve dans ${pull}${draft ? ' (brouillon)' : ''}${counts}`,
  stoppedNoChanges: ':warning: Arrêt anticipé, sans modification.',
  runFailed: ':x: L’exécution a échoué.',
  pausedOnQuestion: ':question: En pause jusqu’à ce que ma question ci-dessus reçoive une réponse.',
  everyStepOfThisRun: 'Toutes les étapes de cette exécution',
  replyRefused: ':information_source: Slack n’a pas accepté la réponse entière ; en voici la forme courte.',
  filesFromThisRun: (names) => `:paperclip: Fichiers de cette exécution : ${names}`,
  progress: {
    cloning: ({ repository, readOnly }) => `clonage du dépôt ${repository}${readOnly ? ' (lecture seule)' : ''}`,
    checkingOut: ({ branch }) => `passage sur la branche ${branch}`,
    checkingOutHead: ({ number }) => `passage sur la dernière version de #${number} (lecture seule)`,
    readingPull: ({ number }) => `lecture de la pull request #${number}`,
    preparingReadOnly: ({ repository }) => `préparation d’une copie en lecture seule du dépôt \`${repository}\``,
    preparingBranch: ({ branch, base }) => `préparation d’une branche \`${branch}\` à partir de \`${base}\``,
    installing: ({ command }) => `installation des dépendances (\`${command}\`)`,
    installingNode: ({ version, source }) => `installation de Node.js ${version} (${source})`,
    refreshing: ({ command }) => `mise à jour des dépendances restaurées (\`${command}\`)`,
    dependenciesInPlace: 'dépendances des mêmes fichiers de verrouillage déjà en place',
    dependenciesRestored: 'dépendances restaurées depuis une installation précédente des mêmes fichiers de verrouillage',
    installFailed: ({ command, timedOut, exitCode, egress }) =>
      `impossible d’installer les dépendances : \`${command}\` ${exit(timedOut, exitCode)}${egress?.length ? `. ${setupEgressLine(egress, egressWords)}` : ''}`,
    refreshFailed: ({ command, timedOut, exitCode }) => `impossible de mettre à jour les dépendances : \`${command}\` ${exit(timedOut, exitCode)}`,
    testsOnBase: 'exécution des tests sur le commit de base',
    readingCode: 'lecture du code',
    reviewingPull: ({ number }) => `revue de #${number}`,
    reviewingCode: 'revue du code',
    investigating: 'examen du code (lecture seule, sans réseau)',
    readingIncident: 'lecture de l’incident, de ses alertes et de ses journaux',
    readingChanges: ({ branch, hours, before }) =>
      `lecture des modifications sur \`${branch}\` ${before === 'incident' ? `dans les ${hours} h précédant l’incident` : `des ${hours} dernières heures`}`,
    running: ({ command }) => `exécution de \`${command}\``,
    reading: ({ path }) => `lecture de ${path}`,
    editing: ({ path }) => `modification de ${path}`,
    askingServer: ({ server, tool }) => `interrogation de ${server} (${tool})`,
    askingRequester: 'une question pour vous',
    updatingPlan: 'mise à jour de son plan',
    queryingMetrics: ({ query }) => `requête de métriques \`${query}\``,
    listingMetrics: ({ mode, label, match }) => `liste des ${mode} de métriques${label ? ` ${label}` : ''}${match ? ` de \`${match}\`` : ''}`,
    tool: ({ name }) => name,
    testsAfterChange: 'exécution des tests après la modification',
    testsAfterRevert: 'exécution des tests après l’annulation du commit',
    testsAgain: 'nouvelle exécution des tests',
    waitingForBaseline: 'en attente des tests sur le commit de base',
    fixingBreakage: 'correction de ce que la modification a cassé',
    regressionTestFails: 'vérification que le test de régression échoue sans le correctif',
    coverageOnBase: ({ command }) => `mesure de la couverture sur le commit de base (\`${command}\`)`,
    coverageAfter: 'mesure de la couverture après la modification',
    downloading: ({ count }) => `téléchargement de ${count} ${count === 1 ? 'fichier joint' : 'fichiers joints'}`,
    pushing: ({ branch }) => `push de la branche ${branch}`,
    pushingDraft: ({ branch }) => `push de \`${branch}\` et ouverture d’une pull request en brouillon`,
    keepingWork: ({ branch }) => `conservation du travail effectué jusqu’ici sur ${branch}`,
    askedQuestion: ({ user }) => `question posée à ${user}`,
    nothingPushed: 'rien n’a été poussé',
    cancelledBeforeStart: 'annulée avant d’avoir commencé',
    stoppedDuring: ({ by, stage }) =>
      `arrêtée par ${by} pendant ${{ setup: 'la préparation (clonage et installation des dépendances)', work: 'le travail', checks: 'les vérifications', publishing: 'la publication' }[stage]}`,
    retrying: ({ problem }) => `nouvel essai dans un instant après un problème passager : ${problem}`,
    waitingThread: 'en attente de l’exécution déjà en cours dans ce fil',
    waitingGlobal: 'en attente d’une place libre (tous les workers sont occupés)',
    waitingRepository: 'en attente de la fin d’autres exécutions sur ce dépôt',
    waitingUser: 'en attente de la fin de vos autres exécutions',
    waitingDisk: ({ freeMb, needMb }) => `en attente d’espace disque sur le worker (${freeMb} Mo libres, ${needMb} Mo nécessaires pour démarrer)`,
  },
  refactoring: {
    suiteFailsHeadline: ':warning: La suite de tests échoue déjà sur le commit de base, je n’ai donc pas commencé la refactorisation.',
    suiteFailsAnswer: (test, failures) =>
      `Une refactorisation doit laisser au vert une suite qui l’est, et ${test} échoue déjà avant toute modification : ${failures}. Corrigez d’abord ces tests, ou mentionnez-moi à nouveau en demandant de refactoriser malgré les tests en échec.`,
    timedOut: 'délai dépassé',
    failing: (count, names) => `${count} en échec, dont ${names}`,
    exitCode: (code) => `code de sortie ${code}`,
    draftSuiteFails: 'Une refactorisation doit laisser toute la suite de tests au vert, et elle échoue après cette modification.',
    movedAndRenamed: 'Déplacements et renommages',
    moved: (what, from, to) => `- Déplacement de ${what} : ${from} → ${to}`,
    renamed: (kind, from, to) => `- ${kind ? `${kind} ` : ''}${from} renommé en ${to}`,
    fullSuite: 'Suite de tests complète',
    suiteBeforeAfter: (command, before, after) =>
      `${command} ${before === undefined ? 'n’a pas été exécuté' : before ? 'réussit' : 'échoue'} sur le commit de base et ${after ? 'réussit' : 'échoue'} après la refactorisation.`,
  },
  plan: {
    stages: {
      reading: 'Lire la demande',
      preparing: 'Préparer l’espace de travail',
      working: 'Travailler sur la modification',
      answering: 'Lire le code pour la réponse',
      edits: 'Modifier des fichiers (l’agent)',
      'agent-tests': 'Lancer les tests (l’agent)',
      verifying: 'Vérifier : lancer les tests et les contrôles',
      publishing: 'Publier : ouvrir ou mettre à jour la pull request',
      question: 'Attendre la réponse à ma question',
    },
    workingOn: (repository) => `Travail en cours sur ${repository}`,
    state: (state, what) =>
      `${{ queued: 'En file d’attente', waiting: 'En pause, en attente d’une réponse', done: 'Terminé', failed: 'Échec', cancelled: 'Annulé' }[state]} : ${what}`,
    cancelled: 'Annulé',
    stopHint: 'pour l’arrêter, mentionnez-moi avec « stop »',
    agentStep: (step) => `${step} (plan de l’agent)`,
    droppedStep: 'retiré du plan de l’agent',
    notMarkedDone: 'non marqué comme fait par l’agent',
    editedFiles: (count, files) => `${count} ${count === 1 ? 'fichier' : 'fichiers'} : ${files}`,
    testRuns: (count, command) => `${count} ${count === 1 ? 'exécution' : 'exécutions'}, la dernière : ${command}`,
    everyStepOnPage: 'Toutes les étapes sur la page de l’exécution',
    couldNotQueue: 'l’exécution n’a pas pu être mise en file d’attente',
    behindThreadRun: 'derrière l’exécution déjà en cours dans ce fil',
    queuePosition: (position) => `position ${position} dans la file`,
    restOnPage: 'La suite est sur la page de l’exécution.',
  },
  stoppedEarlyDetail: 'arrêt anticipé',
  draftDetail: ' (brouillon)',
  report: {
    outcomeSetupFailed: (setup) =>
      `Résultat : Wrench n’a pas pu installer les dépendances (\`${setup}\` a échoué), ses contrôles ne montrent donc pas si la modification fonctionne.`,
    outcomeRegressed: (command, fails, counts) =>
      `Résultat : la modification a cassé des contrôles qui passaient avant ; \`${command}\` ${fails ? 'échoue' : 'réussit'}${counts}.`,
    outcomeFails: (command, counts, asBefore) => `Résultat : \`${command}\` échoue après la modification${counts}${asBefore ? ', comme avant' : ''}.`,
    outcomePasses: (command, counts) => `Résultat : \`${command}\` réussit après la modification${counts}.`,
    outcomePrefix: 'Résultat :',
    summary: 'Résumé',
    summaryAccount: 'Résumé (selon l’agent)',
    summaryContradicted: 'Résumé (affirmation de l’agent, contredite par les contrôles de Wrench)',
    verification: 'Vérification (exécutée par Wrench)',
    draftReason: 'Pourquoi c’est un brouillon',
    stoppedEarly: 'Arrêt anticipé',
    changes: 'Modifications (d’après le diff commité)',
    claimedNotChanged: 'Annoncé par l’agent, mais pas modifié',
    sectionAccount: (title) => `${title} (selon l’agent)`,
    sectionContradicted: (title) => `${title} (affirmation de l’agent, contredite par les contrôles de Wrench)`,
    ownChecksUnconfirmed: 'Ce que l’agent dit avoir vérifié (non confirmé par Wrench)',
    ownChecksContradicted: 'Ce que l’agent dit avoir vérifié (contredit par les contrôles de Wrench)',
    openQuestions: 'Questions ouvertes (de l’agent)',
    measuredFailed: (command, counts) => `Mesuré par Wrench : \`${command}\` a échoué après la modification${counts}.`,
    measuredRegressed: 'Mesuré par Wrench : des contrôles qui passaient avant la modification échouent après (voir Vérification).',
    agentSays: (description) => ` : selon l’agent : ${description}`,
    claimedOnly: (change) => ` : annoncé, mais pas modifié (l’agent a dit : ${change})`,
    instructionsRead: (files) => `J’ai lu les instructions du dépôt pour les agents : ${files}.`,
    instructionTruncated: '(tronqué)',
    instructionOmitted: '(omis : limite de taille)',
    instructionSameAs: (path) => `(identique à ${path})`,
    steps: (n) => `${n} ${n === 1 ? 'étape' : 'étapes'}`,
    files: (n) => `${n} ${n === 1 ? 'fichier' : 'fichiers'}`,
    tokens: 'tokens',
  },
  verification: {
    verdicts: { improved: 'amélioration', unchanged: 'comme avant', regressed: 'régression', 'not-run': 'non exécutés' },
    passed: 'succès',
    failed: 'échec',
    timedOut: 'délai dépassé',
    timedOutAfter: (duration) => `délai dépassé au bout de ${duration}`,
    setupTimedOut: (duration) => `a dépassé le délai au bout de ${duration}`,
    exitedWith: (code) => (code === null ? 'n’a renvoyé aucun code de sortie (processus tué)' : `a renvoyé le code de sortie ${code}`),
    failedWithExit: (code) => `échec (code de sortie ${code ?? 'aucun : processus tué'})`,
    couldNotInstall: 'impossible d’installer les dépendances',
    noTestCommand: 'Aucune commande de test trouvée (vous pouvez la définir sous `verification:` dans wrench.config.yml).',
    notRun: (command) => `${command} n’a pas été exécuté.`,
    setupFailed: (command, how) =>
      `**Impossible d’installer les dépendances** : ${command} ${how}. Les contrôles ci-dessous ont été exécutés sans elles ; ils ne montrent donc pas si la modification fonctionne.`,
    baseSetupFailed: (command, how) =>
      `**Impossible d’installer les dépendances sur le commit de base** : ${command} ${how}. Les contrôles sur le commit de base ne comptent donc pas, et ceux de la modification ne sont comparés à rien.`,
    lastLines: 'Dernières lignes de sa sortie :',
    setupRemembered: (ago) =>
      `Pas relancée : elle a échoué il y a ${ago} avec les mêmes fichiers de verrouillage, la même commande d’installation et les mêmes environnements d’exécution, et c’est cette exécution qui est montrée ici. Elle est relancée une fois l’échec plus ancien que \`cache.setupFailureMinutes\`.`,
    header: (withBaseline, verdict) =>
      `Contrôles exécutés par Wrench ${withBaseline ? 'sur le commit de base et après la modification' : 'après la modification'} : **${verdict}**.`,
    newFailures: (names) => `Nouveaux échecs : ${names}.`,
    stillFailing: (names) => `Toujours en échec (échouaient déjà avant la modification) : ${names}.`,
    fixed: (names) => ` Corrigés : ${names}.`,
    andMore: (names, more) => `${names} et ${more} autres`,
    sameAsBefore: (outcome) => `comme avant : ${outcome}`,
    beforeAfter: (before, after) => `avant ${before} → après ${after}`,
    afterOnly: (outcome) => `${outcome} après la modification ; le commit de base n’a pas été vérifié`,
    bothTimes: (state) => `${state} avant et après`,
    stateChange: (before, after) => `${before} avant → ${after} après`,
    outputEnd: (command) => `Sortie de ${command} (fin) :`,
    ...egressWords,
  },
  regression: {
    rootCause: 'Cause racine',
    regressionTest: 'Test de régression',
    noTest: ':warning: Pas de test de régression : la modification n’ajoute ni ne modifie aucun fichier de test, donc rien ne montre que le bug est corrigé.',
    testsOnly: 'La modification ne touche que des tests : il n’y a donc aucun correctif contre lequel les vérifier.',
    noCommand: 'Aucune commande de test trouvée : le test de régression n’a donc pas pu être exécuté.',
    checkedBy: (files) =>
      `_Vérifié par Wrench : les tests ont été exécutés avec les fichiers source corrigés (${files}) remis dans leur version de base, puis avec le correctif._`,
    proven: (test, how) => `:white_check_mark: Le test de régression ${test} échouait sans le correctif et réussit avec${how}.`,
    failingAfter: (test, how) => `:x: Le test de régression ${test} échoue toujours avec le correctif${how}.`,
    notFailingBefore: (test, how) => `:warning: ${test} réussit aussi sans le correctif ; il ne met donc pas le bug en évidence${how}.`,
    notRun: (test, how) => `${test} n’a pas été exécuté${how}.`,
    couldNotCheck: (error) => `Je n’ai pas pu vérifier le test de régression : ${error}`,
  },
  coverage: {
    title: 'Couverture de tests',
    metrics: { lines: 'lignes', statements: 'instructions', coverage: 'couverture' },
    notMeasured: 'non mesurée',
    notMeasuredFailed: 'non mesurée (la commande a échoué)',
    afterOnly: (command, metric, after) => `${command} : ${metric} ${after} après la modification (le commit de base n’a pas été mesuré).`,
    beforeAfter: (command, metric, before, after, change) => `${command} : ${metric} ${before} avant → ${after} après${change}.`,
    unchanged: ' (inchangée)',
    points: (delta) => ` (${delta} points de pourcentage)`,
  },
  analysis: {
    mainResult: 'Résultat principal',
    fromReport: (path) => `Extrait de ${path} ; le rapport et les graphiques sont joints à ce résultat (non commités).`,
    noTable: (path) => `${path} ne contient aucun tableau ; le fichier est joint ci-dessous.`,
    noReport: (folder) => `L’exécution n’a laissé aucun rapport dans ${folder}.`,
    notUploaded: 'Non envoyés',
    skippedType: 'pas un type de rapport ou de graphique que je partage',
    skippedCount: (max) => `plus de ${max} fichiers`,
    skippedSize: 'trop volumineux pour être envoyé',
  },
  schedules: schedulesFr,
  images: {
    notImage: (name) => `${name} n'est pas une image PNG, JPEG, GIF ou WebP (d'après son contenu) : elle n'a pas été envoyée.`,
    unreadable: (name) => `${name} n'a pas pu être lue comme image (elle est abîmée ou incomplète).`,
    tooLarge: (name) => `${name} est trop grande pour être envoyée, même réduite.`,
    notDownloaded: (name) => `${name} n'a pas pu être téléchargée depuis Slack.`,
    tooMany: (max, names) => `Seules les ${max} premières images sont envoyées ; laissées de côté : ${names}.`,
  },
  stop: {
    cancelledBy: (user, via) => `Annulée par ${user}${via === 'page' ? ' depuis la page de l’exécution' : via === 'home' ? ' depuis App Home' : ''}.`,
    cancelled: 'Annulée.',
    cancelledWhileWaiting: (user) => `Annulée par ${user} pendant l’attente d’une réponse.`,
    restarting: 'Wrench redémarrait, cette exécution s’est donc arrêtée.',
    toGoOn: 'Pour continuer, mentionnez-moi dans ce fil.',
    noAnswer: (waited) => `Personne n’a répondu à ma question en ${waited}, je me suis donc arrêté là.`,
    nothingPushedBranch: (branch) => `Rien n’a été poussé ; ${branch} est tel qu’avant cette exécution.`,
    noBranchYet: 'Rien n’avait encore changé : il n’y a donc pas de branche.',
    nothingPushedPull: (branch) =>
      `Rien n’a été poussé : ${branch} et sa pull request sont tels qu’avant cette exécution, et les modifications inachevées ont été abandonnées.`,
    keptInPull: (draft, number, branch) =>
      `Le travail effectué jusque-là se trouve dans la pull request${draft ? ' en brouillon' : ''} #${number} (branche ${branch}).`,
    keptOnBranch: (branch) => `Le travail effectué jusque-là se trouve sur la branche ${branch}.`,
    stepLimit: (steps) => `La limite d’étapes (${steps} ${steps === 1 ? 'étape' : 'étapes'}) a été atteinte.`,
    timeLimit: (minutes) => `Le budget de temps (${minutes} min) est épuisé.`,
    costLimit: (cap, spent) => `Le plafond de coût ($${cap}) a été atteint ($${spent} dépensés).`,
    tokenLimit: (tokens) => `Le budget de tokens (${tokens} tokens) est épuisé.`,
    refused: 'Le modèle a refusé de poursuivre cette tâche.',
    contextExhausted: 'La conversation ne tient plus dans la fenêtre de contexte du modèle.',
    modelApiFailed: (status, text) => `L’API du modèle a échoué${status ? ` (HTTP ${status})` : ''} malgré plusieurs tentatives : ${text}`,
    agentFailed: (text) => `L’agent a échoué : ${text}`,
  },
  finishedNoChange: 'J’ai terminé sans modifier aucun fichier.',
  draft: {
    regressed:
      'Des contrôles qui passaient avant cette modification échouent maintenant (voir Vérification) ; une passe de l’agent pour les corriger n’a pas abouti.',
    protectedPaths: (paths) =>
      `Cette modification touche des chemins protégés (${paths}) ; un approbateur doit la relire et la valider avant qu’elle soit marquée comme prête.`,
    runtimeMismatch: (runtimes) =>
      `Les vérifications n’ont pas pu tourner sur l’environnement d’exécution que le dépôt demande, elles ne montrent donc pas ce que montrerait sa CI : ${runtimes}`,
  },
  failure: {
    interrupted: (times) =>
      `le worker qui l'exécutait s'est arrêté ${times} fois en cours de route (tué ou planté), elle n'a donc pas été relancée et n'a pas de résultat. Mentionnez-moi pour refaire la demande ; ce qu'elle a poussé avant est sur sa branche.`,
    runFailed: (message) => `L’exécution a échoué : ${message}`,
    githubRefused: (status, text) =>
      `GitHub a refusé la requête (HTTP ${status}) : ${text}. Vérifiez que GITHUB_TOKEN peut pousser et ouvrir des pull requests sur ce dépôt.`,
    githubNotFound: 'GitHub n’a pas trouvé le dépôt ou la branche (HTTP 404). Vérifiez le nom du dépôt et les accès du jeton.',
    githubRejected: (text) => `GitHub a rejeté la pull request (HTTP 422) : ${text}.`,
    githubFailed: (status, text) => `Erreur GitHub (HTTP ${status}) : ${text}. Réessayez dans quelques minutes.`,
    unexpected: (text) =>
      `L’exécution a échoué de façon inattendue : ${text}. Réessayez ; si l’échec persiste, un administrateur peut consulter les journaux de cette tâche.`,
  },
  errors: {
    pushBlockedSecret: ({ branch, places, reword, held }) => {
      const kind = (k: SecretKind) =>
        'own' in k ? `le ${k.own} de Wrench lui-même` : `ce qui ressemble à ${SECRET_RULES_FR[k.rule] ?? 'un identifiant secret'}`;
      const where = places.map((place) =>
        'file' in place
          ? `\`${place.file}\` ligne ${place.line} contient ${kind(place.kind)}`
          : `le message du commit ${place.message} (ligne ${place.line}) contient ${kind(place.kind)}`,
      );
      const fix = reword ? 'supprimez le secret (et reformulez le message de ce commit)' : 'supprimez le secret';
      const on = held?.host ? `sur le worker Wrench \`${held.host}\`` : 'sur la machine Wrench';
      const kept = held
        ? ` Les commits sont conservés ${on} sous forme de bundle retenu \`${held.id}\`${held.days ? ` pendant ${held.days} jours` : ''} (lisible par l’utilisateur de Wrench uniquement ; \`wrench doctor\` sur ${held.host ? 'ce' : 'le'} worker les liste) ; un opérateur les récupère dans un clone du dépôt avec ${fetchHeld(held.id, held.ref)}.`
        : '';
      return `Je n’ai pas poussé \`${branch}\` : ${where.join(' ; ')}. Rien de cette exécution n’a quitté cette machine ; ${fix} et mentionnez-moi pour réessayer.${kept}`;
    },
    githubNotConfigured: ({ need }) =>
      need === 'review'
        ? 'Relire une pull request demande un identifiant GitHub ; définissez GITHUB_TOKEN ou, pour une GitHub App, GITHUB_APP_ID et GITHUB_APP_PRIVATE_KEY_PATH.'
        : 'Aucun identifiant GitHub n’est configuré, je ne peux donc pas ouvrir de pull request. Définissez GITHUB_TOKEN ou, pour une GitHub App, GITHUB_APP_ID et GITHUB_APP_PRIVATE_KEY_PATH.',
    repositoryNotFound: ({ repository }) =>
      `${repository} est introuvable, ou les identifiants GitHub de Wrench ne permettent pas de le lire : vérifiez le dépôt lié à ce canal (wrench.config.yml) et que Wrench y a accès.`,
    baseBranchNotFound: ({ repository, branch }) => `${repository} n’a pas de branche « ${branch} » ; indiquez une branche de base existante.`,
    noDefaultBranch: 'Le dépôt n’a pas de branche par défaut (est-il vide ?) ; poussez un premier commit ou indiquez une branche de base.',
    branchNotFound: ({ repository, branch }) => `La branche « ${branch} » n’existe plus dans ${repository} ; lancez plutôt une nouvelle tâche.`,
    branchExists: ({ repository, branch }) => `La branche « ${branch} » existe déjà dans ${repository} ; poursuivez-la ou choisissez un autre nom.`,
    branchMoved: ({ branch, git }) =>
      git
        ? `Impossible de pousser la branche « ${branch} » : la branche distante contient des commits que cet espace de travail n’a pas (${git}).`
        : `Impossible de pousser la branche « ${branch} » : la branche distante a changé depuis que cet espace de travail l’a récupérée.`,
    pushFailed: ({ branch, when, git }) =>
      when === 'pushing'
        ? `Impossible de pousser la branche « ${branch} » : ${git} ; vérifiez que l’identifiant GitHub a le droit de pousser dans ce dépôt.`
        : `Impossible de pousser la branche « ${branch} » : ${when === 'listing' ? 'impossible de lire les branches du dépôt distant avant de pousser' : 'le push n’a pas pu être vérifié'} (${git}).`,
    pushNotThere: ({ branch, sha, remoteSha }) =>
      remoteSha
        ? `Impossible de pousser la branche « ${branch} » : la branche distante est sur ${remoteSha}, pas sur ${sha}.`
        : `Impossible de pousser la branche « ${branch} » : la branche distante n’existe pas, alors qu’elle devrait être sur ${sha}.`,
    branchConflict: ({ branch, side, files }) =>
      `Quelqu’un a poussé sur \`${branch}\` pendant que je travaillais, et mes modifications entrent en conflit avec les siennes${codeList(files, (list) => ` (${list})`)}. Mon travail est conservé sur la branche \`${side}\` : fusionnez-le à la main, ou mentionnez-moi ici pour le refaire sur la branche actuelle.`,
    revertConflict: ({ sha, files }) =>
      `L’annulation de ${sha} entre en conflit avec des modifications ultérieures dans ${files.join(', ') || 'certains fichiers'} ; annulez-le à la main ou demandez à Wrench de défaire précisément ces modifications.`,
    diskFull: ({ kept }) =>
      kept
        ? `Le disque du répertoire de données de Wrench est plein (plus d’espace disponible) : je me suis arrêté avant la fin. Rien n’est perdu : le travail fait (ce que j’avais commité et le reste) est gardé ${kept.host ? `sur le worker Wrench \`${kept.host}\`` : 'sur la machine de Wrench'} dans \`$WRENCH_DATA_DIR/held/${kept.id}.tree\`${kept.days ? ` pendant ${kept.days} jours` : ''}. Quand l’exploitation aura libéré de l’espace, mentionnez-moi pour réessayer.`
        : 'Le disque du répertoire de données de Wrench est plein (plus d’espace disponible) : l’exécution n’a pas pu commencer son travail ; rien n’a été modifié. Quand l’exploitation aura libéré de l’espace, mentionnez-moi pour réessayer.',
  },
  answer: answerFr,
  review: {
    reviewOf: (subject, count) => `:mag: Revue de ${subject}${count ? ` : ${count}` : ''}`,
    onBranch: (repository, branch) => `${repository} sur ${branch}`,
    noFindingsCount: 'aucune remarque',
    findingsCount: (total, counts) => `${total} ${total === 1 ? 'remarque' : 'remarques'} : ${counts}`,
    findings: 'Remarques',
    noFindings: 'Aucune remarque : je n’ai rien trouvé à signaler.',
    none: 'Aucune.',
    focusAreas: 'Points d’attention',
    suggestedFix: 'Correctif suggéré :',
    onGitHub: 'Sur GitHub',
    posted: (inline, url) =>
      `Publiée comme simple revue de commentaires, avec ${inline} ${inline === 1 ? 'commentaire en ligne' : 'commentaires en ligne'}${url ? ` : ${url}` : '.'}`,
    couldNotPost: (error) => `Je n’ai pas pu publier la revue sur GitHub (${error}) ; les remarques ci-dessus sont complètes.`,
    noReport: 'La revue s’est terminée sans rapport.',
    incomplete: 'La revue est incomplète.',
    noSuchPull: (repository, number) => `:grey_question: \`${repository}\` n’a pas de pull request #${number} : il n’y a donc rien à relire.`,
    checkNumber: (number) =>
      `Vérifiez le numéro, ou indiquez le dépôt si la pull request se trouve ailleurs : \`review PR #${number} in owner/repo\` (ou collez son URL).`,
  },
  notQueued: {
    task: 'cette tâche',
    triage: 'ce triage',
    invalidJob: (what, error) =>
      `:x: Je n’ai pas pu mettre ${what} en file d’attente : ${error}. C’est un bug de Wrench, pas une erreur de votre part ; me mentionner à nouveau n’y changera rien. Prévenez un administrateur (les détails sont dans le journal de Wrench).`,
    queueUnavailable: (what) =>
      `:x: Je n’ai pas pu mettre ${what} en file d’attente, car ma file de tâches (Redis) est indisponible. Mentionnez-moi à nouveau dans une minute ; si l’échec persiste, demandez à un administrateur de lancer \`wrench doctor\`.`,
    unexpected: (what) =>
      `:x: Je n’ai pas pu mettre ${what} en file d’attente à cause d’une erreur inattendue. Mentionnez-moi à nouveau dans une minute ; si l’échec persiste, demandez à un administrateur de consulter le journal de Wrench.`,
  },
  steered:
    'Transmis à l’agent en cours : il le lira avant son prochain appel au modèle, sans repartir de zéro. Si l’exécution se termine avant, mentionnez-moi ici pour en faire une demande de suivi.',
  steeredFromPage: (user) => `<@${user}> a écrit à l’agent en cours depuis la page de l’exécution :`,
  steeringUnread: (count) =>
    `${count === 1 ? 'Ce message est arrivé' : 'Ces messages sont arrivés'} après la dernière étape de l’exécution, qui ne ${count === 1 ? 'l’a donc pas lu' : 'les a donc pas lus'} :`,
  steeringWrote: (name) => `${name} a écrit :`,
  personInThread: 'une personne du fil',
  steeringFollowUp: 'Mentionnez-moi ici avec ce que vous voulez encore, et je le ferai dans une exécution de suivi.',
  nothingRunning: 'Rien n’est en cours dans ce fil.',
  restartedAfterInterruption: ':arrows_counterclockwise: Wrench a redémarré après une interruption : cette exécution reprend depuis le début.',
  restartedFromBranch: (branch: string) =>
    `:arrows_counterclockwise: Wrench a redémarré après une interruption : cette exécution reprend à partir des commits que sa tentative précédente a poussés sur \`${branch}\`.`,
  help: (me) =>
    [
      `Bonjour ! Mentionnez ${me} avec une tâche de développement, et je travaillerai sur le dépôt de ce canal puis ouvrirai une pull request.`,
      `Par exemple : \`${me} ajouter des tests pour formatBytes dans src/lib/format.ts couvrant 0, 1023 et 1024 octets ; npm test doit passer\``,
      `Je sais aussi faire : \`${me} review PR #42\`, \`${me} corriger la TypeError dans src/cart.ts:88\`, \`${me} triage: le checkout renvoie des erreurs 500 depuis 14:05\`.`,
    ].join('\n'),
  noRepository: (config) =>
    `Ce canal n’est encore lié à aucun dépôt, je ne sais donc pas où travailler.\nIndiquez-en un dans votre message (par exemple \`in acme/web\`), ou liez le canal dans \`wrench.config.yml\` :\n${config}`,
  repositoryNotAllowed: (repository) =>
    `Je n’ai pas l’autorisation de travailler sur ${repository}.\nUn administrateur peut l’autoriser en l’ajoutant (ou un motif comme \`owner/*\`) à \`repos:\` dans \`wrench.config.yml\`.`,
  sharedChannel:
    'Wrench n’accepte pas de travail dans les canaux Slack Connect ici. Un administrateur peut l’autoriser avec `access.sharedChannels: true` dans `wrench.config.yml`.',
  instructionTooLong: (length, max) =>
    `Cette instruction fait ${length} caractères ; j’en accepte au plus ${max}. Raccourcissez-la, ou joignez les contenus longs (journaux, données) en fichier et faites-y référence.`,
  takingFailed:
    ':x: Un problème est survenu pendant la prise en charge de cette demande, rien n’a donc été lancé. Mentionnez-moi à nouveau dans une minute ; si cela se reproduit, un administrateur peut lancer `wrench doctor`.',
  redisLostRetaken:
    ":warning: Le Redis de Wrench a perdu ses données (il a redémarré vide) après que j'ai pris cette demande : sa place dans la file a été perdue. J'en avais gardé une copie et je la reprends depuis le début ; vous n'avez rien à faire.",
  redisLostWhileRunning:
    ":warning: Le Redis de Wrench a perdu ses données (il a redémarré vide) pendant que cette demande s'exécutait. Son résultat peut encore arriver ici ; s'il n'est pas là dans quelques minutes, redemandez.",
  runSilentEnded: (minutes, limit) =>
    `:warning: Cette exécution a commencé il y a ${minutes} min et s'est terminée, mais aucun résultat ni aucune erreur n'est arrivé dans ce fil (sa limite de temps est de ${limit} min). Quelque chose s'est mal passé du côté de Wrench ; merci de refaire la demande.`,
  runSilentRunning: (minutes, limit) =>
    `:warning: Cette exécution a commencé il y a ${minutes} min, au-delà de sa limite de ${limit} min, et n'a encore envoyé aucun résultat. Elle est peut-être bloquée : son résultat peut encore arriver ici ; sinon, arrêtez-la et refaites la demande.`,
  mentionDropped: (attempts) =>
    `:x: Je n’ai pas pu prendre en charge cette demande : son traitement a échoué ${attempts} fois. Rien n’a été lancé ; mentionnez-moi à nouveau pour réessayer.`,
  notAuthorized:
    'Vous ne figurez pas sur la liste des personnes qui peuvent lancer du travail avec Wrench ici. Demandez à un administrateur d’ajouter votre identifiant d’utilisateur Slack à `access.users` dans `wrench.config.yml`.',
  triage: {
    queued: (repository) =>
      `:mag: Triage en file d’attente : j’examinerai ${repository} en lecture seule (les modifications récentes et le code) et je rendrai compte ici.`,
    working: (detail) => `:mag: Triage : ${detail}`,
    investigating: 'examen en cours',
    finished: (elapsed) => `:white_check_mark: Triage terminé en ${elapsed}`,
    failedAfter: (elapsed) => `:x: Le triage a échoué après ${elapsed}`,
    cancelled: ':no_entry_sign: Triage annulé',
    failed: (message) => `:x: Le triage a échoué. ${message}`,
    reportOf: (subject) => `:mag: *Triage de ${subject}*`,
    reportSummary: (subject, verdict) => `Triage de ${subject} : ${verdict}`,
    verdict: '*Verdict* (lecture de l’agent) :',
    whatIsGoingOn: '*Ce qui se passe* (lecture de l’agent)',
    noGoodLead: '*Pas de piste solide.* Je n’ai trouvé aucun élément désignant une cause, je n’en invente donc pas.',
    hypothesis: '*Hypothèse* (de l’agent ; aucun élément à l’appui, confiance faible)',
    likelyCause: (confidence) => `*Cause probable* (lecture de l’agent, confiance : *${confidence}*)`,
    confidence: { low: 'faible', medium: 'moyenne', high: 'élevée' },
    evidence: '*Éléments* (tels que l’agent les cite ; les liens sont ceux de Wrench)',
    suspectCommits: (branch) => `*Commits suspects* (le plus probable d’abord, sur ${branch} ; les raisons sont celles de l’agent)`,
    notOnBaseBranch: '_(introuvable sur la branche de base)_',
    ruledOut: '*Écarté* (par l’agent)',
    nextSteps: '*Prochaines étapes* (suggestions de l’agent)',
    couldNotRead: '*Illisible* (le rapport repose sur les autres éléments)',
    openFixPr: 'Ouvrir une PR de correctif',
    revert: (sha) => `Annuler ${sha}`,
    revertQuestion: (sha) => `Annuler ${sha} ?`,
    revertExplained: (sha, branch) =>
      `Wrench annulera ${sha} (revert) sur une nouvelle branche créée à partir de ${branch}, lancera les tests et ouvrira une pull request en brouillon. Rien n’est fusionné.`,
    openRevertPr: 'Ouvrir une PR d’annulation',
    dismiss: 'Ignorer',
    approversOnly: 'Seuls les approbateurs peuvent utiliser ces boutons.',
    actions: 'Actions du triage',
    dismissedBy: (user) => `:no_entry_sign: Ignoré par <@${user}>`,
    approversOnlyAction: (action) =>
      `Seuls les approbateurs peuvent utiliser « ${action} » sur un triage. Demandez à une personne listée sous \`access.approvers\` dans wrench.config.yml.`,
    revertAlready: (sha) => `Une annulation de ${sha} a déjà été demandée depuis ce triage.`,
    fixAlready: 'Une exécution de correctif a déjà été lancée depuis ce triage ; suivez-la dans son fil.',
    reverting: (sha, base, user) => `:rewind: Annulation de ${sha} sur ${base} à la demande de ${user} : préparation d’une branche`,
    revertDoing: (sha, what) => `:rewind: Annulation de ${sha} : ${what}`,
    revertWorking: 'en cours',
    revertFailed: (sha, message) => `:x: L’annulation de ${sha} a échoué : ${message}`,
    revertOpened: (number, sha, url, verdict) => `:rewind: J’ai ouvert la PR brouillon #${number} qui annule ${sha} : ${url}\n${verdict}`,
    revertNoChecks: 'Aucune vérification n’a été lancée après l’annulation.',
    revertOpenAlready: (sha, number, url) =>
      `:information_source: ${sha} est déjà en cours d’annulation dans la PR #${number} : ${url}. Rien de nouveau n’a été poussé.`,
    revertNotOnBase: (sha, base) =>
      `:warning: ${sha} n’est plus sur ${base} (force-push ou jamais fusionné) : il n’y a donc rien à annuler. Rien n’a été poussé.`,
    revertConflict: (sha, why) => `:warning: Je n’ai pas pu annuler ${sha} proprement : ${why} Rien n’a été poussé.`,
    revertBranchExists: (branch) =>
      `:information_source: Une branche ${branch} existe déjà sans pull request ouverte. Supprimez-la (ou ouvrez une PR à partir d’elle) et appuyez de nouveau sur Annuler. Rien n’a été poussé.`,
  },
  cancelNotAllowed: 'Seule la personne qui a demandé cette exécution, ou un approbateur, peut l’annuler.',
  github: {
    closed: (pull, by, merged) =>
      `La ${pull.link(`pull request #${pull.number}`)} a été ${merged ? 'fusionnée' : 'fermée sans fusion'} par @${by}. Le travail de ce fil est terminé ; mentionnez-moi ici pour commencer autre chose (avec une nouvelle branche et une nouvelle pull request).${merged ? '' : ' Si la pull request est rouverte, ce fil la reprend.'}`,
    reopenedBusy: (pull, by) =>
      `La ${pull.link(`pull request #${pull.number}`)} a été rouverte par @${by}, mais ce fil a commencé un autre travail depuis : il ne reprend donc pas cette pull request ici. Commentez la pull request en me mentionnant, ou commencez un nouveau fil, pour y travailler.`,
    reopened: (pull, by, branch) =>
      `La ${pull.link(`pull request #${pull.number}`)} a été rouverte par @${by} : ce fil la reprend${branch ? ` sur ${branch}` : ''}. Mentionnez-moi ici, ou commentez la pull request, pour continuer.`,
    commentLead: (kind, author, pull, place) =>
      `@${author} ${{ review: 'a demandé des modifications sur', 'review-comment': 'a commenté', comment: 'a écrit sur' }[kind]} la ${pull.link(`pull request #${pull.number}`)}${place ? `, sur ${place}` : ''} :`,
    reviewLead: (author, pull, changesRequested, count) =>
      `@${author} a ${changesRequested ? 'demandé des modifications sur' : 'relu'} la ${pull.link(`pull request #${pull.number}`)} avec ${count} commentaire${count === 1 ? '' : 's'} :`,
    place: (path, line, startLine) =>
      line === null ? path : startLine !== null && startLine !== line ? `${path} lignes ${startLine}–${line}` : `${path} ligne ${line}`,
    continuing: (branch) => `Je m’en occupe sur ${branch ?? 'la branche'}.`,
    baseFails: (checks, count, pull, base, baseSha) =>
      `${checks} ${count > 1 ? 'ont' : 'a'} échoué sur la ${pull.link(`pull request #${pull.number}`)}, mais ${count > 1 ? 'échouent' : 'échoue'} aussi sur ${base} (${baseSha}) : ce n’est donc pas cette modification qui en est la cause, et je ne lance pas de tour de correction. Corrigez d’abord sur ${base}, ou mentionnez-moi ici en disant quoi faire.`,
    fixLimit: (checks, count, number, done) =>
      `${checks} ${count > 1 ? 'échouent' : 'échoue'} toujours sur la pull request #${number} après ${done} ${done === 1 ? 'tour' : 'tours'} de correction (la limite, \`github.maxFixRounds\`) : je ne réessaie donc pas ; il faut maintenant une personne.`,
    failingRun: 'L’exécution en échec.',
    noEvidence: (checks, count, pull, head) =>
      `${checks} ${count > 1 ? 'ont' : 'a'} échoué sur la ${pull.link(`pull request #${pull.number}`)} (head ${head}), mais je n’ai rien pu lire sur la raison (ni log, ni sortie, ni annotations) : je ne dépense donc pas un tour de correction sur une supposition. Ouvrez le check en échec et dites-moi ici quoi corriger.`,
    fixRound: (checks, count, pull, head, round, of, earlier) =>
      `${checks} ${earlier ? `${earlier.count > 1 ? 'échouent' : 'échoue'} toujours après le tour de correction ${earlier.round}` : `${count > 1 ? 'ont' : 'a'} échoué`} sur la ${pull.link(`pull request #${pull.number}`)} (head ${head}). Tour de correction ${round} sur ${of} : je regarde ce que la CI a signalé.`,
    passed: (checks, count, pull, head, round) =>
      `${checks} ${count > 1 ? 'passent' : 'passe'} sur la ${pull.link(`pull request #${pull.number}`)} (head ${head}) après le tour de correction ${round}.`,
    statusFailed: (context, pull, head, description, details) =>
      `${context} a signalé un échec sur la ${pull.link(`pull request #${pull.number}`)} (head ${head})${description ? ` : « ${description} »` : ''}.${details ? ` Détails : ${details('l’exécution de la CI')}.` : ''} Je ne peux pas lire les logs de cette CI d’ici : je ne lance donc pas de tour de correction sur une supposition. Collez ici la sortie en échec, ou dites-moi quoi corriger.`,
    couldNotAct: (kind, by, pull, error) =>
      `Je n’ai pas pu traiter ${EVENT_WORDS_FR[kind] ?? 'l’événement'}${by ? ` de @${by}` : ''} sur la ${pull.link(`pull request #${pull.number}`)} : ${error}. Une fois le problème réglé, relivrez-le depuis les paramètres de la GitHub App (Advanced → Recent Deliveries), ou dites ici quoi faire.`,
  },
};
