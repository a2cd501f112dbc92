import { schedulesEs } from '../../schedules/schedule-strings.js';
import { answerEs } from '../../answers/answer-strings.js';
import { codeList, fetchHeld } from '../../error-words.js';
import type { SecretKind } from '../../security/secret-kind.js';
import { setupEgressLine } from '../../verification/render-verification.js';
import type { EgressStrings } from '../../verification/verification-strings.js';
import type { Catalogue } from './en.js';

/** A secretlint rule's credential ("algo que parece …"). */
const SECRET_RULES_ES: Record<string, string> = {
  github: 'un token de GitHub',
  slack: 'un token o una URL de webhook de Slack',
  anthropic: 'una clave de API de Anthropic',
  openai: 'una clave de API de OpenAI',
  aws: 'una credencial de AWS',
  gcp: 'una credencial de Google Cloud',
  privatekey: 'una clave privada',
  'secp256k1-privatekey': 'una clave privada',
  basicauth: 'una contraseña en una URL',
  'database-connection-string': 'una contraseña de base de datos',
  npm: 'un token de npm',
  sendgrid: 'una clave de API de SendGrid',
  stripe: 'una clave de Stripe',
};

/** What the egress policy refused during setup (said in the checks and in the progress line). */
const egressWords: EgressStrings = {
  egressNotAllowed: (target) => `${target}: no está en la lista de destinos permitidos (sandbox.egress.allow)`,
  egressMetadata: (target, address) => `${target}: se resuelve a ${address}, la dirección de metadatos de la nube`,
  egressNonPublic: (target, address) => `${target}: se resuelve a ${address}, que no es una dirección pública (loopback, privada o link-local)`,
  egressUpstreamRefused: (target, upstream, answer) => `${target}: el proxy de salida ${upstream} respondió ${answer}`,
  egressUpstreamUnreachable: (target, upstream, answer) => `${target}: no se pudo conectar con el proxy de salida ${upstream} (${answer})`,
  setupCouldNotReach: (refusal, more) =>
    `La instalación no pudo llegar a este destino: ${refusal}${more.length ? ` (y ${more.length} más rechazados: ${more.join(', ')})` : ''}.`,
};

/** The GitHub events a thread can be told Wrench could not act on, with their article. */
const EVENT_WORDS_ES: Record<string, string> = {
  comment: 'el comentario',
  'review-comment': 'el comentario de revisión',
  review: 'la revisión',
  'check-failed': 'el check fallido',
  'check-passed': 'el check que pasó',
  'status-failed': 'el estado de commit fallido',
  closed: 'el cierre del pull request',
};

/** Spanish; what is missing here is said in English. */
export const es: Catalogue = {
  categories: {
    testing: 'Pruebas',
    'data-analysis': 'Análisis de datos',
    'web-scraping': 'Extracción web',
    'code-review': 'Revisión de código',
    'bug-fixing': 'Corrección de error',
    feature: 'Funcionalidad',
    refactoring: 'Refactorización',
    'incident-triage': 'Triaje de incidente',
    question: 'Pregunta',
  },
  complexity: { simple: 'sencilla', medium: 'media', complex: 'compleja' },
  taskOn: (category, repository, status) => `Tarea de ${category} en ${repository}: ${status}`,
  where: 'Dónde:',
  constraints: 'Restricciones:',
  doneWhen: 'Terminado cuando:',
  cancel: 'Cancelar',
  queued: (position) => `:hourglass_flowing_sand: En cola${position ? ` (posición ${position})` : ''}`,
  queuedBehindThread: ':hourglass_flowing_sand: En cola detrás de la tarea que ya está en marcha en este hilo',
  statusLine: {
    reading: 'está leyendo tu solicitud…',
    readingSteps: (repository) => ['Leyendo tu solicitud…', `Mirando ${repository}…`],
    waitingForWorker: 'está esperando un worker libre…',
    // The details it gets begin with "esperando": "Wrench está esperando …".
    waitingOn: (detail) => `está ${detail}…`,
  },
  addDetails: 'Añadir detalles',
  startAnyway: 'Empezar igualmente',
  needMore: 'Antes de empezar necesito un poco más para no adivinar:',
  answerHere: 'Responde aquí en el hilo o pulsa *Añadir detalles*.',
  startingAnyway: (user) => `Empiezo igualmente a petición de <@${user}>.`,
  enoughToStart: 'Gracias, con esto puedo empezar.',
  requestGone: 'Esta solicitud ya empezó o ha caducado.',
  requestBusy: 'Alguien está iniciando esta solicitud o añadiéndole detalles ahora mismo. Si vuelvo a preguntar, responde a la nueva tarjeta.',
  replyWhileStarting:
    'Esta solicitud ya se estaba iniciando cuando llegó tu mensaje, así que no se le añadió. Cuando la ejecución esté en marcha, responde aquí para pasárselo al agente o mencióname para convertirlo en una tarea de seguimiento.',
  clarifying: {
    target: {
      testing: {
        question: '¿Qué deben cubrir las pruebas? Indica el módulo, la función o el comportamiento que hay que probar.',
        placeholder: '`formatBytes` en src/lib/format.ts: 0, 1023, 1024, entrada negativa',
      },
      'code-review': {
        question: '¿Qué reviso? Indica un número o enlace de PR, una rama o los archivos.',
        placeholder: 'PR #123 en acme/api',
      },
      'data-analysis': { question: '¿Qué datos analizo? Indica el archivo, la tabla o la exportación.', placeholder: 'data/orders-2026-09.csv' },
      'web-scraping': {
        question: '¿De qué sitios o páginas extraigo datos? Indica las URL y qué hay que recoger de cada una.',
        placeholder: 'https://example.com/pricing: nombre del plan, precio mensual, moneda',
      },
      refactoring: { question: '¿Qué código refactorizo? Indica los archivos, el módulo o las funciones.', placeholder: 'src/api/handlers.ts' },
      'bug-fixing': { question: '¿Qué parte del producto está afectada?', placeholder: 'la página de pago, al pagar con una tarjeta guardada' },
      feature: { question: '¿Qué exactamente construyo y dónde va?', placeholder: 'una opción `--json` para el comando `status` en src/cli/status.ts' },
      'incident-triage': { question: '¿Qué servicio o sistema está afectado?', placeholder: 'search-api (repositorio acme/search)' },
      question: {
        question: '¿Qué quieres saber del código? Indica la funcionalidad, el archivo o el comportamiento.',
        placeholder: 'dónde se configura el límite de peticiones de /search',
      },
    },
    failingTests: {
      question: '¿Cómo fallan las pruebas? Pega los nombres de las pruebas que fallan y la aserción o la salida de error.',
      placeholder: 'test/cart/total.test.ts "applies coupon" falla en main: expected 10, received 9.99',
    },
    incidentSymptoms: {
      question: '¿Qué estás observando? ¿Qué servicio, desde cuándo y con qué síntomas (tasa de errores, códigos de estado, alertas, un despliegue reciente)?',
      placeholder: 'checkout-api: errores 502 en POST /orders desde las 14:05 UTC, justo después de la versión 3.4.1',
    },
    observedProblem: {
      question: '¿Qué falla exactamente? Pega el mensaje de error o la traza, di qué esperabas y qué pasó en su lugar, y cómo reproducirlo.',
      placeholder: 'Esperado: un cargo por pedido. Real: un doble clic en «Pagar» cobra la tarjeta dos veces.',
    },
    codeToTest: { question: '¿Dónde está el código que hay que probar? Indica el archivo o el directorio.', placeholder: 'src/lib/format.ts' },
    location: {
      question: '¿Dónde ocurre? Indica el archivo, la función, el endpoint o la página.',
      placeholder: 'src/payments/charge.ts, `createCharge` (POST /checkout)',
    },
    rewriteScope: {
      question: 'Reescribirlo todo es demasiado para una sola tarea. ¿Por qué módulo o servicio empiezo y qué debe seguir haciendo?',
      placeholder: 'solo el endpoint /search, la misma API, las pruebas existentes deben seguir pasando',
    },
    scope: (subject) => ({
      question: `${subject ? `«${subject}» es` : 'Es'} un área amplia. ¿Qué primera parte acotada construyo y qué queda fuera?`,
      placeholder: 'un endpoint de pago con Stripe Checkout, todavía sin reembolsos ni suscripciones',
    }),
    requirements: { question: '¿Qué debe hacer? Enumera los requisitos, uno por línea.', placeholder: '1. …\n2. …' },
    analysisQuestions: {
      question: '¿Qué preguntas debe responder el análisis? Indica las métricas o desgloses y el resultado que quieres.',
      placeholder: 'ingresos por día, los 10 productos con más ingresos; una tabla Markdown y un gráfico de barras en PNG',
    },
    refactoringGoal: {
      question: '¿Qué debe ser distinto después? Indica cambios concretos y las comprobaciones que deben seguir cumpliéndose.',
      placeholder: 'un archivo por recurso en src/api/handlers/, sin cambios de comportamiento, las pruebas existentes pasan',
    },
    testsProve: {
      question: '¿Qué deben demostrar las pruebas? Indica los casos o la cobertura que hay que alcanzar.',
      placeholder: 'cada función exportada tiene una prueba; cobertura de ramas de src/lib/ de al menos el 90 %',
    },
    done: {
      question: '¿Cómo sabremos que está terminado? Indica un resultado medible o las comprobaciones que deben pasar.',
      placeholder: 'la página carga con 1000 filas en menos de 1 s; `npm test` pasa',
    },
    focusAreas: {
      question: '¿En qué debe centrarse la revisión?',
      placeholder: 'inyección SQL y comprobaciones de permisos en las nuevas rutas de administración',
    },
    findingsFormat: { question: '¿Cómo te presento los hallazgos?', placeholder: 'Markdown, gravedad Critical/Major/Minor' },
    outputFormat: { question: '¿En qué formato quieres el resultado?', placeholder: 'una tabla Markdown y un gráfico en PNG' },
    rateLimit: { question: '¿A qué ritmo puedo descargar páginas?', placeholder: 'como máximo 1 solicitud por segundo' },
    errorHandling: {
      question: '¿Qué hago si una solicitud falla o se le agota el tiempo?',
      placeholder: 'reintentar dos veces con espera creciente y luego saltar la página',
    },
    logging: { question: '¿Qué hay que registrar?', placeholder: 'cada URL que falle, con su código de estado y el motivo' },
    more: (element) => `¿Puedes contarme más sobre «${element}»?`,
  },
  modal: { title: 'Añadir detalles', submit: 'Empezar', close: 'Cancelar', instruction: 'Tu instrucción' },
  onlyRequesterAddsDetails: 'Solo quien lo pidió, o una persona aprobadora, puede añadir detalles aquí.',
  onlyRequesterStarts: 'Solo quien lo pidió, o una persona aprobadora, puede empezar esto.',
  whichRepository: 'Este canal trabaja con varios repositorios y no sé para cuál es esta solicitud. Pulsa el que corresponda o respóndeme aquí diciendo cuál.',
  repositoryChosen: (user, repository) => `<@${user}> eligió *${repository}*: empiezo ahí.`,
  onlyRequesterChoosesRepository: 'Solo quien lo pidió, o una persona aprobadora, puede elegir el repositorio.',
  nameTheRepository: (repositories) =>
    `Sigo sin saber para qué repositorio es: pulsa uno de los botones de arriba o nombra uno de ${repositories} en tu respuesta.`,
  tooLarge: (step) =>
    `Esto es demasiado grande para hacerlo bien de una vez, así que no voy a empezarlo así. Un primer paso acotado sería:\n> ${step}\nMencióname con él (o con tu propio primer paso) en este hilo, o pulsa *Empezar igualmente*.`,
  questionIntro: (requester) => `<@${requester}> Tengo una pregunta antes de seguir:`,
  decideYourself: 'Decide tú',
  deadline: (hasButtons, date) =>
    `${hasButtons ? 'Pulsa un botón o responde' : 'Responde'} aquí en el hilo, o deja que decida yo; mientras tanto la ejecución está en pausa. Si no hay respuesta antes del ${date}, terminaré con lo que tengo.`,
  asked: (requester) => `<@${requester}> Pregunté:`,
  answered: (by, answer) => `<@${by}> respondió: ${answer}`,
  cancelledBy: (user) => `_Cancelado por <@${user}> antes de que llegara una respuesta._`,
  noAnswerInTime: '_No llegó ninguna respuesta a tiempo, así que termino con lo que tengo._',
  reminder: (requester, question, date) =>
    `<@${requester}> Te recuerdo que sigo esperando tu respuesta a mi pregunta de arriba (${question}). Si no hay respuesta antes del ${date}, terminaré con lo que tengo.`,
  dateAt: 'a las',
  questionStale: 'Esta pregunta ya se respondió o ha caducado.',
  questionSettled: (outcome: string) => `Esta pregunta ya está resuelta: ${outcome}`,
  questionNotYours: (requester) =>
    `¡Gracias! Le hice esta pregunta a <@${requester}> y espero su respuesta (o la de una persona aprobadora); tu mensaje no cuenta como respuesta.`,
  lateAnswer: (question, date, mention) =>
    `Mi pregunta («${question}») caducó ${date} sin respuesta, así que la ejecución terminó con lo que tenía y tu mensaje no cuenta como su respuesta. Para seguir, mencióname en este hilo con tu respuesta (${mention} seguido de la respuesta): eso inicia una ejecución de seguimiento que continúa el trabajo de este hilo.`,
  questionExpired:
    ':warning: Esta ejecución estaba esperando la respuesta a su pregunta, pero la conversación guardada ha caducado, así que no puede continuar.',
  questionExpiredNext: 'Mencióname en este hilo para empezar de nuevo; lo que se subió antes de la pregunta está en la rama.',
  phases: {
    queued: ':hourglass_flowing_sand: En cola',
    preparing: ':package: Preparando el espacio de trabajo',
    working: ':hammer_and_wrench: Trabajando',
    waiting: ':question: Esperando una respuesta',
    verifying: ':test_tube: Verificando',
    publishing: ':outbox_tray: Abriendo el pull request',
    done: ':white_check_mark: Terminado',
    failed: ':x: Falló',
    cancelled: ':no_entry_sign: Cancelado',
  },
  after: (elapsed) => `tras ${elapsed}`,
  usually: (elapsed, typical) => `${elapsed} (lo habitual: ${typical})`,
  seeEveryStep: 'ver todos los pasos',
  opened: (draft, pull, counts) => `${draft ? ':warning:' : ':white_check_mark:'} Pull request${draft ? ' en borrador' : ''} abierto: ${pull}${counts}`,
  updated: (draft, pull, counts) => `:arrows_counterclockwise: Pull request${draft ? ' en borrador' : ''} actualizado: ${pull}${counts}`,
  answeredNoChange: ':speech_balloon: No cambié ningún archivo, así que no hay pull request. Mi respuesta:',
  stoppedWithPull: (draft, pull, counts) =>
    `:warning: Se detuvo antes de terminar; el trabajo hecho hasta ahora está en ${pull}${draft ? ' (borrador)' : ''}${counts}`,
  runFailed: ':x: La ejecución falló.',
  stoppedNoChanges: ':warning: Se detuvo antes de terminar, sin cambios.',
  pausedOnQuestion: ':question: En pausa hasta que se responda mi pregunta de arriba.',
  everyStepOfThisRun: 'Todos los pasos de esta ejecución',
  replyRefused: ':information_source: Slack no aceptó la respuesta completa, así que aquí va su forma breve.',
  filesFromThisRun: (names) => `:paperclip: Archivos de esta ejecución: ${names}`,
  progress: {
    cloning: ({ repository, readOnly }) => `clonando ${repository}${readOnly ? ' (solo lectura)' : ''}`,
    checkingOut: ({ branch }) => `cambiando a ${branch}`,
    checkingOutHead: ({ number }) => `cambiando a lo último de #${number} (solo lectura)`,
    readingPull: ({ number }) => `leyendo el pull request #${number}`,
    preparingReadOnly: ({ repository }) => `preparando una copia de solo lectura de \`${repository}\``,
    preparingBranch: ({ branch, base }) => `preparando una rama \`${branch}\` a partir de \`${base}\``,
    installing: ({ command }) => `instalando dependencias (\`${command}\`)`,
    installingNode: ({ version, source }) => `instalando Node.js ${version} (${source})`,
    refreshing: ({ command }) => `actualizando las dependencias restauradas (\`${command}\`)`,
    dependenciesInPlace: 'las dependencias de los mismos archivos de bloqueo ya están instaladas',
    dependenciesRestored: 'dependencias restauradas de una instalación anterior de los mismos archivos de bloqueo',
    installFailed: ({ command, timedOut, exitCode, egress }) =>
      `no se pudieron instalar las dependencias: \`${command}\` ${timedOut ? 'agotó el tiempo' : `terminó con el código de salida ${exitCode ?? 'ninguno'}`}${egress?.length ? `. ${setupEgressLine(egress, egressWords)}` : ''}`,
    refreshFailed: ({ command, timedOut, exitCode }) =>
      `no se pudieron actualizar las dependencias: \`${command}\` ${timedOut ? 'agotó el tiempo' : `terminó con el código de salida ${exitCode ?? 'ninguno'}`}`,
    testsOnBase: 'ejecutando las pruebas en el commit base',
    readingCode: 'leyendo el código',
    reviewingPull: ({ number }) => `revisando #${number}`,
    reviewingCode: 'revisando el código',
    investigating: 'investigando el código (solo lectura, sin red)',
    readingIncident: 'leyendo el incidente, sus alertas y sus registros',
    readingChanges: ({ branch, hours, before }) =>
      `leyendo los cambios en \`${branch}\` de las ${hours} horas anteriores ${before === 'incident' ? 'al incidente' : 'a ahora'}`,
    running: ({ command }) => `ejecutando \`${command}\``,
    reading: ({ path }) => `leyendo ${path}`,
    editing: ({ path }) => `editando ${path}`,
    askingServer: ({ server, tool }) => `consultando a ${server} (${tool})`,
    askingRequester: 'haciéndote una pregunta',
    updatingPlan: 'actualizando su plan',
    queryingMetrics: ({ query }) => `consultando métricas: \`${query}\``,
    listingMetrics: ({ mode, label, match }) => `listando ${mode} de métricas${label ? ` ${label}` : ''}${match ? ` de \`${match}\`` : ''}`,
    tool: ({ name }) => name,
    testsAfterChange: 'ejecutando las pruebas después del cambio',
    testsAfterRevert: 'ejecutando las pruebas después de la reversión',
    testsAgain: 'ejecutando las pruebas de nuevo',
    waitingForBaseline: 'esperando a las pruebas en el commit base',
    fixingBreakage: 'arreglando lo que rompió el cambio',
    regressionTestFails: 'comprobando que la prueba de regresión falla sin la corrección',
    coverageOnBase: ({ command }) => `midiendo la cobertura en el commit base (\`${command}\`)`,
    coverageAfter: 'midiendo la cobertura después del cambio',
    downloading: ({ count }) => `descargando ${count} ${count === 1 ? 'archivo adjunto' : 'archivos adjuntos'}`,
    pushing: ({ branch }) => `subiendo ${branch}`,
    pushingDraft: ({ branch }) => `subiendo \`${branch}\` y abriendo un pull request en borrador`,
    keepingWork: ({ branch }) => `guardando el trabajo hecho hasta ahora en ${branch}`,
    askedQuestion: ({ user }) => `le hizo una pregunta a ${user}`,
    nothingPushed: 'no se subió nada',
    cancelledBeforeStart: 'cancelada antes de empezar',
    stoppedDuring: ({ by, stage }) =>
      `detenida por ${by} durante ${{ setup: 'la preparación (clonar e instalar las dependencias)', work: 'el trabajo', checks: 'las comprobaciones', publishing: 'la publicación' }[stage]}`,
    retrying: ({ problem }) => `reintentando enseguida tras un problema pasajero: ${problem}`,
    waitingThread: 'esperando a la ejecución que ya está en marcha en este hilo',
    waitingGlobal: 'esperando un hueco libre (todos los workers están ocupados)',
    waitingRepository: 'esperando a que terminen otras ejecuciones en este repositorio',
    waitingUser: 'esperando a que terminen tus otras ejecuciones',
    waitingDisk: ({ freeMb, needMb }) => `esperando espacio en disco en el worker (${freeMb} MB libres, ${needMb} MB necesarios para empezar)`,
  },
  refactoring: {
    suiteFailsHeadline: ':warning: La batería de pruebas ya falla en el commit base, así que no empecé la refactorización.',
    suiteFailsAnswer: (test, failures) =>
      `Una refactorización debe dejar pasando una batería que pasa, y ${test} ya falla antes de cualquier cambio: ${failures}. Arregla primero esas pruebas, o mencióname de nuevo y di que refactorice a pesar de las pruebas que fallan.`,
    timedOut: 'agotó el tiempo',
    failing: (count, names) => `${count} fallando, entre ellas ${names}`,
    exitCode: (code) => `código de salida ${code}`,
    draftSuiteFails: 'Una refactorización debe dejar pasando toda la batería de pruebas, y falla después de este cambio.',
    movedAndRenamed: 'Movido y renombrado',
    moved: (what, from, to) => `- ${what} movido: ${from} → ${to}`,
    renamed: (kind, from, to) => `- ${kind ? `${kind} ` : ''}${from} renombrado a ${to}`,
    fullSuite: 'Batería de pruebas completa',
    suiteBeforeAfter: (command, before, after) =>
      `En el commit base ${before === undefined ? `${command} no se ejecutó` : before ? `${command} pasa` : `${command} falla`}; después de la refactorización ${after ? 'pasa' : 'falla'}.`,
  },
  plan: {
    stages: {
      reading: 'Leer la solicitud',
      preparing: 'Preparar el espacio de trabajo',
      working: 'Trabajar en el cambio',
      answering: 'Leer el código para la respuesta',
      edits: 'Editar archivos (el agente)',
      'agent-tests': 'Ejecutar pruebas (el agente)',
      verifying: 'Verificar: ejecutar las pruebas y comprobaciones',
      publishing: 'Publicar: abrir o actualizar el pull request',
      question: 'Esperar la respuesta a mi pregunta',
    },
    workingOn: (repository) => `Trabajando en ${repository}`,
    state: (state, what) =>
      `${{ queued: 'En cola', waiting: 'En pausa, esperando una respuesta', done: 'Terminado', failed: 'Falló', cancelled: 'Cancelado' }[state]}: ${what}`,
    cancelled: 'Cancelado',
    stopHint: 'para cancelar, mencióname con «stop»',
    agentStep: (step) => `${step} (plan del agente)`,
    droppedStep: 'eliminado del plan del agente',
    notMarkedDone: 'el agente no lo marcó como hecho',
    editedFiles: (count, files) => `${count} ${count === 1 ? 'archivo' : 'archivos'}: ${files}`,
    testRuns: (count, command) => `${count} ${count === 1 ? 'ejecución' : 'ejecuciones'}, la última: ${command}`,
    everyStepOnPage: 'Todos los pasos en la página de la ejecución',
    couldNotQueue: 'no se pudo poner la ejecución en cola',
    behindThreadRun: 'detrás de la ejecución que ya está en marcha en este hilo',
    queuePosition: (position) => `posición ${position}`,
    restOnPage: 'El resto está en la página de la ejecución.',
  },
  stoppedEarlyDetail: 'detenida antes de terminar',
  draftDetail: ' (borrador)',
  report: {
    outcomeSetupFailed: (setup) =>
      `Resultado: Wrench no pudo instalar las dependencias (\`${setup}\` falló), así que sus comprobaciones no muestran si el cambio funciona.`,
    outcomeRegressed: (command, fails, counts) =>
      `Resultado: el cambio rompió comprobaciones que antes pasaban; \`${command}\` ${fails ? 'falla' : 'pasa'}${counts}.`,
    outcomeFails: (command, counts, asBefore) => `Resultado: \`${command}\` falla después del cambio${counts}${asBefore ? ', como ya fallaba antes' : ''}.`,
    outcomePasses: (command, counts) => `Resultado: \`${command}\` pasa después del cambio${counts}.`,
    outcomePrefix: 'Resultado:',
    summary: 'Resumen',
    summaryAccount: 'Resumen (según el agente)',
    summaryContradicted: 'Resumen (afirmación del agente, contradicha por las comprobaciones de Wrench)',
    verification: 'Verificación (ejecutada por Wrench)',
    draftReason: 'Por qué es un borrador',
    stoppedEarly: 'Detenida antes de terminar',
    changes: 'Cambios (según el diff del commit)',
    claimedNotChanged: 'El agente dice que lo cambió, pero no cambió',
    sectionAccount: (title) => `${title} (según el agente)`,
    sectionContradicted: (title) => `${title} (afirmación del agente, contradicha por las comprobaciones de Wrench)`,
    ownChecksUnconfirmed: 'Lo que el agente dice que comprobó (no confirmado por Wrench)',
    ownChecksContradicted: 'Lo que el agente dice que comprobó (contradicho por las comprobaciones de Wrench)',
    openQuestions: 'Preguntas abiertas (del agente)',
    measuredFailed: (command, counts) => `Medido por Wrench: \`${command}\` falló después del cambio${counts}.`,
    measuredRegressed: 'Medido por Wrench: comprobaciones que pasaban antes del cambio fallan después (ver Verificación).',
    agentSays: (description) => `: según el agente: ${description}`,
    claimedOnly: (change) => `: el agente dice que lo cambió, pero no cambió (dijo: ${change})`,
    instructionsRead: (files) => `Leí las instrucciones del repositorio para agentes: ${files}.`,
    instructionTruncated: '(recortado)',
    instructionOmitted: '(omitido: límite de tamaño)',
    instructionSameAs: (path) => `(igual que ${path})`,
    steps: (n) => `${n} ${n === 1 ? 'paso' : 'pasos'}`,
    files: (n) => `${n} ${n === 1 ? 'archivo' : 'archivos'}`,
    tokens: 'tokens',
  },
  verification: {
    verdicts: { improved: 'mejor', unchanged: 'igual que antes', regressed: 'peor', 'not-run': 'no ejecutadas' },
    passed: 'pasó',
    failed: 'falló',
    timedOut: 'agotó el tiempo',
    timedOutAfter: (duration) => `agotó el tiempo tras ${duration}`,
    setupTimedOut: (duration) => `se interrumpió tras ${duration} (tiempo agotado)`,
    exitedWith: (code) => (code === null ? 'se interrumpió (sin código de salida)' : `terminó con el código de salida ${code}`),
    failedWithExit: (code) => `falló (código de salida ${code ?? 'ninguno: interrumpido'})`,
    couldNotInstall: 'no se pudieron instalar las dependencias',
    noTestCommand: 'No se encontró ningún comando de pruebas (puedes fijarlo en `verification:` de wrench.config.yml).',
    notRun: (command) => `${command} no se ejecutó.`,
    setupFailed: (command, how) =>
      `**No se pudieron instalar las dependencias**: ${command} ${how}. Las comprobaciones de abajo se ejecutaron sin ellas, así que no muestran si el cambio funciona.`,
    baseSetupFailed: (command, how) =>
      `**No se pudieron instalar las dependencias en el commit base**: ${command} ${how}. Por eso las comprobaciones del commit base no cuentan y las del cambio no se comparan con nada.`,
    lastLines: 'Las últimas líneas de la salida:',
    setupRemembered: (ago) =>
      `No se volvió a ejecutar: falló hace ${ago} con los mismos archivos de bloqueo, el mismo comando de instalación y los mismos entornos de ejecución, y aquí se muestra esa ejecución. Se vuelve a ejecutar cuando el fallo tiene más de \`cache.setupFailureMinutes\`.`,
    header: (withBaseline, verdict) =>
      `Comprobaciones ejecutadas por Wrench ${withBaseline ? 'en el commit base y después del cambio' : 'después del cambio'}: **${verdict}**.`,
    newFailures: (names) => `Fallos nuevos: ${names}.`,
    stillFailing: (names) => `Siguen fallando (ya fallaban antes del cambio): ${names}.`,
    fixed: (names) => ` Arregladas: ${names}.`,
    andMore: (names, more) => `${names} y ${more} más`,
    sameAsBefore: (outcome) => `igual que antes: ${outcome}`,
    beforeAfter: (before, after) => `antes ${before} → después ${after}`,
    afterOnly: (outcome) => `${outcome} después del cambio; el commit base no se comprobó`,
    bothTimes: (state) => `${state} antes y después`,
    stateChange: (before, after) => `antes ${before} → después ${after}`,
    outputEnd: (command) => `Salida de ${command} (final):`,
    ...egressWords,
  },
  regression: {
    rootCause: 'Causa raíz',
    regressionTest: 'Prueba de regresión',
    noTest:
      ':warning: No hay prueba de regresión: el cambio no añade ni modifica ningún archivo de pruebas, así que nada demuestra que el error esté corregido.',
    testsOnly: 'El cambio solo toca pruebas, así que no hay ninguna corrección contra la que comprobarlas.',
    noCommand: 'No se encontró ningún comando de pruebas, así que no se pudo ejecutar la prueba de regresión.',
    checkedBy: (files) =>
      `_Comprobado por Wrench: las pruebas se ejecutaron con los archivos fuente corregidos (${files}) tal como estaban en el commit base, y después con la corrección._`,
    proven: (test, how) => `:white_check_mark: La prueba de regresión ${test} fallaba sin la corrección y pasa con ella${how}.`,
    failingAfter: (test, how) => `:x: La prueba de regresión ${test} también falla con la corrección${how}.`,
    notFailingBefore: (test, how) => `:warning: ${test} también pasa sin la corrección, así que no demuestra el error${how}.`,
    notRun: (test, how) => `${test} no se ejecutó${how}.`,
    couldNotCheck: (error) => `No pude comprobar la prueba de regresión: ${error}`,
  },
  coverage: {
    title: 'Cobertura de pruebas',
    metrics: { lines: 'líneas', statements: 'sentencias', coverage: 'cobertura' },
    notMeasured: 'no medida',
    notMeasuredFailed: 'no medida (el comando falló)',
    afterOnly: (command, metric, after) => `${command}: ${metric} ${after} después del cambio (el commit base no se midió).`,
    beforeAfter: (command, metric, before, after, change) => `${command}: ${metric} antes ${before} → después ${after}${change}.`,
    unchanged: ' (sin cambios)',
    points: (delta) => ` (${delta} puntos porcentuales)`,
  },
  analysis: {
    mainResult: 'Resultado principal',
    fromReport: (path) => `De ${path}; el informe y los gráficos van adjuntos a este resultado (no se han hecho commit).`,
    noTable: (path) => `${path} no contiene ninguna tabla; el archivo va adjunto abajo.`,
    noReport: (folder) => `La ejecución no dejó ningún informe en ${folder}.`,
    notUploaded: 'No subidos',
    skippedType: 'no es un tipo de informe o gráfico que comparta',
    skippedCount: (max) => `más de ${max} archivos`,
    skippedSize: 'demasiado grande para subirlo',
  },
  schedules: schedulesEs,
  images: {
    notImage: (name) => `${name} no es una imagen PNG, JPEG, GIF ni WebP (por su contenido), así que no se envió.`,
    unreadable: (name) => `${name} no se pudo leer como imagen (está dañada o incompleta).`,
    tooLarge: (name) => `${name} es demasiado grande para enviarla, incluso reducida.`,
    notDownloaded: (name) => `${name} no se pudo descargar de Slack.`,
    tooMany: (max, names) => `Solo se envían las primeras ${max} imágenes; quedaron fuera: ${names}.`,
  },
  stop: {
    cancelledBy: (user, via) => `Cancelada por ${user}${via === 'page' ? ' desde la página de la ejecución' : via === 'home' ? ' desde App Home' : ''}.`,
    cancelled: 'Cancelada.',
    cancelledWhileWaiting: (user) => `Cancelada por ${user} mientras la ejecución esperaba una respuesta.`,
    restarting: 'Wrench se reinició, así que esta ejecución se detuvo.',
    toGoOn: 'Para seguir, mencióname en este hilo.',
    noAnswer: (waited) => `Nadie respondió a mi pregunta en ${waited}, así que me detuve ahí.`,
    nothingPushedBranch: (branch) => `No se subió nada; ${branch} está como antes de esta ejecución.`,
    noBranchYet: 'Todavía no había cambiado nada, así que no hay rama.',
    nothingPushedPull: (branch) => `No se subió nada: ${branch} y su pull request están como antes de esta ejecución, y los cambios a medias se descartaron.`,
    keptInPull: (draft, number, branch) =>
      `El trabajo hecho hasta ese momento está en el pull request${draft ? ' en borrador' : ''} #${number} (rama ${branch}).`,
    keptOnBranch: (branch) => `El trabajo hecho hasta ese momento está en la rama ${branch}.`,
    stepLimit: (steps) => `Se alcanzó el límite de pasos (${steps} ${steps === 1 ? 'paso' : 'pasos'}).`,
    timeLimit: (minutes) => `Se agotó el tiempo disponible (${minutes} min).`,
    costLimit: (cap, spent) => `Se alcanzó el límite de coste ($${cap}; gastado: $${spent}).`,
    tokenLimit: (tokens) => `Se agotó el presupuesto de tokens (${tokens} tokens).`,
    refused: 'El modelo se negó a seguir con esta tarea.',
    contextExhausted: 'La conversación ya no cabe en la ventana de contexto del modelo.',
    modelApiFailed: (status, text) => `La API del modelo siguió fallando tras varios reintentos${status ? ` (HTTP ${status})` : ''}: ${text}`,
    agentFailed: (text) => `El agente falló: ${text}`,
  },
  finishedNoChange: 'Terminé sin cambiar ningún archivo.',
  draft: {
    regressed: 'Comprobaciones que pasaban antes de este cambio ahora fallan (ver Verificación); una ronda del agente para arreglarlas no lo consiguió.',
    protectedPaths: (paths) => `Este cambio toca rutas protegidas (${paths}); una persona aprobadora debe revisarlo y aprobarlo antes de marcarlo como listo.`,
    runtimeMismatch: (runtimes) =>
      `Las comprobaciones no pudieron ejecutarse en el entorno de ejecución que pide el repositorio, así que no muestran lo que mostraría su CI: ${runtimes}`,
  },
  failure: {
    interrupted: (times) =>
      `el worker que la ejecutaba se detuvo ${times} veces mientras estaba en curso (terminado o caído), así que no se volvió a iniciar y no tiene resultado. Menciónme para pedirlo de nuevo; lo que haya subido antes está en su rama.`,
    runFailed: (message) => `La ejecución falló: ${message}`,
    githubRefused: (status, text) =>
      `GitHub rechazó la solicitud (HTTP ${status}): ${text}. Comprueba que GITHUB_TOKEN puede subir cambios y abrir pull requests en este repositorio.`,
    githubNotFound: 'GitHub no encontró el repositorio o la rama (HTTP 404). Comprueba el nombre del repositorio y los permisos del token.',
    githubRejected: (text) => `GitHub rechazó el pull request (HTTP 422): ${text}.`,
    githubFailed: (status, text) => `Error de GitHub (HTTP ${status}): ${text}. Vuelve a intentarlo en unos minutos.`,
    unexpected: (text) =>
      `La ejecución falló de forma inesperada: ${text}. Vuelve a intentarlo; si sigue fallando, un administrador puede revisar los registros de este trabajo.`,
  },
  errors: {
    pushBlockedSecret: ({ branch, places, reword, held }) => {
      const kind = (k: SecretKind) => ('own' in k ? `el ${k.own} propio de Wrench` : `algo que parece ${SECRET_RULES_ES[k.rule] ?? 'una credencial'}`);
      const where = places.map((place) =>
        'file' in place
          ? `\`${place.file}\` línea ${place.line} contiene ${kind(place.kind)}`
          : `el mensaje del commit ${place.message} (línea ${place.line}) contiene ${kind(place.kind)}`,
      );
      const fix = reword ? 'elimina la credencial (y reescribe el mensaje de ese commit)' : 'elimina la credencial';
      const on = held?.host ? `en el worker de Wrench \`${held.host}\`` : 'en la máquina de Wrench';
      const kept = held
        ? ` Los commits se guardan ${on} como bundle retenido \`${held.id}\`${held.days ? ` durante ${held.days} días` : ''} (solo el usuario de Wrench puede leerlo; \`wrench doctor\` en ${held.host ? 'ese' : 'el'} worker los lista); un operador los obtiene en un clon del repositorio con ${fetchHeld(held.id, held.ref)}.`
        : '';
      return `No subí \`${branch}\`: ${where.join('; ')}. Nada de esta ejecución salió de esta máquina; ${fix} y mencióname de nuevo para volver a intentarlo.${kept}`;
    },
    githubNotConfigured: ({ need }) =>
      need === 'review'
        ? 'Revisar una pull request necesita una credencial de GitHub; configura GITHUB_TOKEN o, para una GitHub App, GITHUB_APP_ID y GITHUB_APP_PRIVATE_KEY_PATH.'
        : 'No hay ninguna credencial de GitHub configurada, así que no puedo abrir una pull request. Configura GITHUB_TOKEN o, para una GitHub App, GITHUB_APP_ID y GITHUB_APP_PRIVATE_KEY_PATH.',
    repositoryNotFound: ({ repository }) =>
      `No se encontró ${repository}, o las credenciales de GitHub de Wrench no pueden leerlo: revisa el repositorio vinculado a este canal (wrench.config.yml) y que Wrench tenga acceso a él.`,
    baseBranchNotFound: ({ repository, branch }) => `${repository} no tiene ninguna rama "${branch}"; indica una rama base que exista.`,
    noDefaultBranch: 'El repositorio no tiene rama por defecto (¿está vacío?); sube un primer commit o indica una rama base.',
    branchNotFound: ({ repository, branch }) => `La rama "${branch}" ya no existe en ${repository}; empieza una tarea nueva.`,
    branchExists: ({ repository, branch }) => `La rama "${branch}" ya existe en ${repository}; continúala o elige otro nombre.`,
    branchMoved: ({ branch, git }) =>
      git
        ? `No pude subir la rama "${branch}": la rama remota tiene commits que este espacio de trabajo no tiene (${git}).`
        : `No pude subir la rama "${branch}": la rama remota cambió desde que este espacio de trabajo la obtuvo.`,
    pushFailed: ({ branch, when, git }) =>
      when === 'pushing'
        ? `No pude subir la rama "${branch}": ${git}; comprueba que la credencial de GitHub pueda subir a este repositorio.`
        : `No pude subir la rama "${branch}": ${when === 'listing' ? 'no pude leer las ramas del remoto antes de subirla' : 'no se pudo verificar la subida'} (${git}).`,
    pushNotThere: ({ branch, sha, remoteSha }) =>
      remoteSha
        ? `No pude subir la rama "${branch}": la rama remota está en ${remoteSha}, no en ${sha}.`
        : `No pude subir la rama "${branch}": la rama remota no existe; debería estar en ${sha}.`,
    branchConflict: ({ branch, side, files }) =>
      `Alguien subió cambios a \`${branch}\` mientras yo trabajaba, y mis cambios entran en conflicto con los suyos${codeList(files, (list) => ` (${list})`)}. Mi trabajo queda en la rama \`${side}\`: fusiónalo a mano, o mencióname aquí para rehacerlo sobre la rama actual.`,
    revertConflict: ({ sha, files }) =>
      `Revertir ${sha} choca con cambios posteriores en ${files.join(', ') || 'algunos archivos'}; reviértelo a mano o pide a Wrench que deshaga esos cambios en concreto.`,
    diskFull: ({ kept }) =>
      kept
        ? `El disco del directorio de datos de Wrench se llenó (no queda espacio), así que me detuve antes de terminar. No se pierde nada: el trabajo hecho (lo que confirmé y lo que no) se guarda ${kept.host ? `en el worker de Wrench \`${kept.host}\`` : 'en la máquina de Wrench'} en \`$WRENCH_DATA_DIR/held/${kept.id}.tree\`${kept.days ? ` durante ${kept.days} días` : ''}. Cuando alguien de operaciones libere espacio, mencióname para intentarlo de nuevo.`
        : 'El disco del directorio de datos de Wrench está lleno (no queda espacio), así que la ejecución no pudo empezar su trabajo; no se cambió nada. Cuando alguien de operaciones libere espacio, mencióname para intentarlo de nuevo.',
  },
  answer: answerEs,
  review: {
    reviewOf: (subject, count) => `:mag: Revisión de ${subject}${count ? `: ${count}` : ''}`,
    onBranch: (repository, branch) => `${repository} en ${branch}`,
    noFindingsCount: 'sin hallazgos',
    findingsCount: (total, counts) => `${total} ${total === 1 ? 'hallazgo' : 'hallazgos'}: ${counts}`,
    findings: 'Hallazgos',
    noFindings: 'Sin hallazgos: no encontré nada que objetar.',
    none: 'Ninguno.',
    focusAreas: 'Aspectos en los que centrarse',
    suggestedFix: 'Corrección sugerida:',
    onGitHub: 'En GitHub',
    posted: (inline, url) =>
      `Publicada como revisión solo con comentarios, con ${inline} ${inline === 1 ? 'comentario en línea' : 'comentarios en línea'}${url ? `: ${url}` : '.'}`,
    couldNotPost: (error) => `No pude publicar la revisión en GitHub (${error}); los hallazgos de arriba están completos.`,
    noReport: 'La revisión terminó sin informe.',
    incomplete: 'La revisión está incompleta.',
    noSuchPull: (repository, number) => `:grey_question: \`${repository}\` no tiene ningún pull request #${number}, así que no hay nada que revisar.`,
    checkNumber: (number) =>
      `Comprueba el número, o indica el repositorio si el pull request está en otro: \`review PR #${number} in owner/repo\` (o pega su URL).`,
  },
  notQueued: {
    task: 'esta tarea',
    triage: 'este triaje',
    invalidJob: (what, error) =>
      `:x: No pude poner en cola ${what}: ${error}. Es un fallo de Wrench, no algo que hicieras mal; mencionarme de nuevo no ayudará. Avisa a un administrador (los detalles están en el registro de Wrench).`,
    queueUnavailable: (what) =>
      `:x: No pude poner en cola ${what} porque no puedo acceder a mi cola de trabajos (Redis). Mencióname de nuevo en un minuto; si sigue fallando, pide a un administrador que ejecute \`wrench doctor\`.`,
    unexpected: (what) =>
      `:x: No pude poner en cola ${what} por un error inesperado. Mencióname de nuevo en un minuto; si sigue fallando, pide a un administrador que revise el registro de Wrench.`,
  },
  steered:
    'Se lo pasé al agente en marcha: lo leerá antes de su próxima llamada al modelo, sin empezar de nuevo. Si la ejecución termina antes, mencióname aquí para convertirlo en una tarea de seguimiento.',
  steeredFromPage: (user) => `<@${user}> escribió al agente en marcha desde la página de la ejecución:`,
  steeringUnread: (count) =>
    `${count === 1 ? 'Este mensaje llegó' : 'Estos mensajes llegaron'} a la ejecución después de su último paso, así que no ${count === 1 ? 'lo' : 'los'} leyó:`,
  steeringWrote: (name) => `${name} escribió:`,
  personInThread: 'Una persona del hilo',
  steeringFollowUp: 'Mencióname aquí con lo que aún quieras y lo haré como tarea de seguimiento.',
  nothingRunning: 'Ahora mismo no hay nada en marcha en este hilo.',
  restartedAfterInterruption: ':arrows_counterclockwise: Wrench se reinició tras una interrupción: esta ejecución empieza de nuevo desde el principio.',
  restartedFromBranch: (branch: string) =>
    `:arrows_counterclockwise: Wrench se reinició tras una interrupción: esta ejecución sigue desde los commits que su intento anterior subió a \`${branch}\`.`,
  help: (me) =>
    [
      `¡Hola! Menciona a ${me} con una tarea de desarrollo y trabajaré en el repositorio de este canal y abriré un pull request.`,
      `Por ejemplo: \`${me} añade pruebas para formatBytes en src/lib/format.ts que cubran 0, 1023 y 1024 bytes; npm test debe pasar\``,
      `Otras cosas que hago: \`${me} review PR #42\`, \`${me} corrige el TypeError en src/cart.ts:88\`, \`${me} triage: el checkout devuelve errores 500 desde las 14:05\`.`,
    ].join('\n'),
  noRepository: (config) =>
    `Este canal todavía no está vinculado a ningún repositorio, así que no sé dónde trabajar.\nIndica uno en tu mensaje (por ejemplo \`in acme/web\`) o vincula el canal en \`wrench.config.yml\`:\n${config}`,
  repositoryNotAllowed: (repository) =>
    `No tengo permiso para trabajar en ${repository}.\nUn administrador puede permitirlo añadiéndolo (o un patrón como \`owner/*\`) en \`repos:\` de \`wrench.config.yml\`.`,
  sharedChannel:
    'Wrench no acepta trabajo aquí en canales de Slack Connect. Un administrador puede permitirlo con `access.sharedChannels: true` en `wrench.config.yml`.',
  instructionTooLong: (length, max) =>
    `Esa instrucción tiene ${length} caracteres; acepto como máximo ${max}. Acórtala, o adjunta el material largo (registros, datos) como archivo y haz referencia a él.`,
  takingFailed:
    ':x: Algo falló mientras recibía esta solicitud, así que no se inició nada. Mencióname de nuevo en un minuto; si sigue pasando, un administrador puede ejecutar `wrench doctor`.',
  redisLostRetaken:
    ':warning: El Redis de Wrench perdió sus datos (se reinició vacío) después de que tomé esta solicitud, así que perdió su lugar en la cola. Guardé una copia y la tomo de nuevo desde el principio; no tienes que hacer nada.',
  redisLostWhileRunning:
    ':warning: El Redis de Wrench perdió sus datos (se reinició vacío) mientras esta solicitud se ejecutaba. Su resultado aún puede llegar aquí; si no llega en unos minutos, vuelve a pedirlo.',
  runSilentEnded: (minutes, limit) =>
    `:warning: Esta ejecución empezó hace ${minutes} min y ha terminado, pero a este hilo no llegó ningún resultado ni error (su límite de tiempo es de ${limit} min). Algo falló por parte de Wrench; vuelve a pedirlo, por favor.`,
  runSilentRunning: (minutes, limit) =>
    `:warning: Esta ejecución empezó hace ${minutes} min, más que su límite de ${limit} min, y aún no ha enviado ningún resultado. Puede estar atascada: su resultado aún puede llegar aquí; si no llega, detenla y vuelve a pedirlo.`,
  mentionDropped: (attempts) =>
    `:x: No pude aceptar esta solicitud: procesarla falló ${attempts} veces. No se inició nada; mencióname de nuevo para volver a intentarlo.`,
  notAuthorized:
    'No estás en la lista de personas que pueden iniciar trabajo con Wrench aquí. Pide a un administrador que añada tu ID de usuario de Slack a `access.users` en `wrench.config.yml`.',
  triage: {
    queued: (repository) => `:mag: Triaje en cola: investigaré ${repository} en solo lectura (los cambios recientes y el código) e informaré aquí.`,
    working: (detail) => `:mag: Triaje: ${detail}`,
    investigating: 'investigando',
    finished: (elapsed) => `:white_check_mark: Triaje terminado tras ${elapsed}`,
    failedAfter: (elapsed) => `:x: El triaje falló tras ${elapsed}`,
    cancelled: ':no_entry_sign: Triaje cancelado',
    failed: (message) => `:x: El triaje falló. ${message}`,
    reportOf: (subject) => `:mag: *Triaje de ${subject}*`,
    reportSummary: (subject, verdict) => `Triaje de ${subject}: ${verdict}`,
    verdict: '*Veredicto* (interpretación del agente):',
    whatIsGoingOn: '*Qué está pasando* (interpretación del agente)',
    noGoodLead: '*Ninguna pista sólida.* No encontré pruebas que apunten a una causa, así que no voy a adivinar una.',
    hypothesis: '*Hipótesis* (del agente; no se encontraron pruebas que la respalden, confianza baja)',
    likelyCause: (confidence) => `*Causa probable* (interpretación del agente, confianza: *${confidence}*)`,
    confidence: { low: 'baja', medium: 'media', high: 'alta' },
    evidence: '*Pruebas* (tal como las cita el agente; los enlaces son de Wrench)',
    suspectCommits: (branch) => `*Commits sospechosos* (el más probable primero, en ${branch}; los motivos son del agente)`,
    notOnBaseBranch: '_(no encontrado en la rama base)_',
    ruledOut: '*Descartado* (por el agente)',
    nextSteps: '*Próximos pasos* (sugeridos por el agente)',
    couldNotRead: '*No se pudo leer* (el informe se basa en el resto de las pruebas)',
    openFixPr: 'Abrir PR de corrección',
    revert: (sha) => `Revertir ${sha}`,
    revertQuestion: (sha) => `¿Revertir ${sha}?`,
    revertExplained: (sha, branch) =>
      `Wrench revertirá ${sha} en una rama nueva a partir de ${branch}, ejecutará las pruebas y abrirá un pull request en borrador. No se fusiona nada.`,
    openRevertPr: 'Abrir PR de reversión',
    dismiss: 'Descartar',
    approversOnly: 'Solo las personas aprobadoras pueden usar estos botones.',
    actions: 'Acciones de triaje',
    dismissedBy: (user) => `:no_entry_sign: Descartado por <@${user}>`,
    approversOnlyAction: (action) =>
      `Solo las personas aprobadoras pueden usar «${action}» en un triaje. Pídeselo a alguien que figure en \`access.approvers\` de wrench.config.yml.`,
    revertAlready: (sha) => `Ya se pidió una reversión de ${sha} desde este triaje.`,
    fixAlready: 'Ya se inició una ejecución de corrección desde este triaje; síguela en su hilo.',
    reverting: (sha, base, user) => `:rewind: Revirtiendo ${sha} en ${base} a petición de ${user}: preparando una rama`,
    revertDoing: (sha, what) => `:rewind: Revirtiendo ${sha}: ${what}`,
    revertWorking: 'trabajando',
    revertFailed: (sha, message) => `:x: Falló la reversión de ${sha}: ${message}`,
    revertOpened: (number, sha, url, verdict) => `:rewind: Abrí el PR en borrador #${number} que revierte ${sha}: ${url}\n${verdict}`,
    revertNoChecks: 'No se ejecutó ninguna comprobación después de la reversión.',
    revertOpenAlready: (sha, number, url) => `:information_source: ${sha} ya se está revirtiendo en el PR #${number}: ${url}. No se subió nada nuevo.`,
    revertNotOnBase: (sha, base) =>
      `:warning: ${sha} ya no está en ${base} (se hizo force push o nunca se fusionó), así que no hay nada que revertir. No se subió nada.`,
    revertConflict: (sha, why) => `:warning: No pude revertir ${sha} limpiamente: ${why} No se subió nada.`,
    revertBranchExists: (branch) =>
      `:information_source: Ya existe una rama ${branch} sin pull request abierto. Bórrala (o abre un PR desde ella) y vuelve a pulsar Revertir. No se subió nada.`,
  },
  cancelNotAllowed: 'Solo quien pidió esta ejecución, o una persona aprobadora, puede cancelarla.',
  github: {
    closed: (pull, by, merged) =>
      `El ${pull.link(`pull request #${pull.number}`)} ${merged ? `fue fusionado por @${by}` : `fue cerrado sin fusionar por @${by}`}. El trabajo de este hilo terminó; mencióname aquí para empezar algo nuevo (tendrá una rama y un pull request nuevos).${merged ? '' : ' Si el pull request se reabre, este hilo lo retoma.'}`,
    reopenedBusy: (pull, by) =>
      `El ${pull.link(`pull request #${pull.number}`)} fue reabierto por @${by}, pero este hilo empezó otro trabajo desde entonces, así que no retoma ese pull request aquí. Comenta en el pull request mencionándome, o empieza un hilo nuevo, para trabajar en él.`,
    reopened: (pull, by, branch) =>
      `El ${pull.link(`pull request #${pull.number}`)} fue reabierto por @${by}: este hilo lo retoma${branch ? ` en ${branch}` : ''}. Mencióname aquí, o comenta en el pull request, para seguir.`,
    commentLead: (kind, author, pull, place) =>
      `@${author} ${{ review: 'pidió cambios en', 'review-comment': 'comentó en', comment: 'escribió en' }[kind]} el ${pull.link(`pull request #${pull.number}`)}${place ? `, en ${place}` : ''}:`,
    reviewLead: (author, pull, changesRequested, count) =>
      `@${author} ${changesRequested ? 'pidió cambios en' : 'revisó'} el ${pull.link(`pull request #${pull.number}`)} con ${count} comentario${count === 1 ? '' : 's'}:`,
    place: (path, line, startLine) =>
      line === null ? path : startLine !== null && startLine !== line ? `${path} líneas ${startLine}–${line}` : `${path} línea ${line}`,
    continuing: (branch) => `Sigo con eso en ${branch ?? 'la rama'}.`,
    baseFails: (checks, count, pull, base, baseSha) =>
      `${checks} ${count > 1 ? 'fallaron' : 'falló'} en el ${pull.link(`pull request #${pull.number}`)}, pero también ${count > 1 ? 'fallan' : 'falla'} en ${base} (${baseSha}), así que este cambio no lo causó; no empiezo una ronda de corrección. Arréglalo primero en ${base}, o mencióname aquí con lo que hay que hacer.`,
    fixLimit: (checks, count, number, done) =>
      `${checks} ${count > 1 ? 'siguen' : 'sigue'} fallando en el pull request #${number} después de ${done} ${done === 1 ? 'ronda' : 'rondas'} de corrección (el límite, \`github.maxFixRounds\`), así que no lo intento otra vez; ahora hace falta una persona.`,
    failingRun: 'La ejecución fallida.',
    noEvidence: (checks, count, pull, head) =>
      `${checks} ${count > 1 ? 'fallaron' : 'falló'} en el ${pull.link(`pull request #${pull.number}`)} (head ${head}), pero no pude leer nada sobre el motivo (ni log, ni salida, ni anotaciones), así que no gasto una ronda de corrección en una suposición. Abre el check fallido y dime aquí qué arreglar.`,
    fixRound: (checks, count, pull, head, round, of, earlier) =>
      `${checks} ${earlier ? `${earlier.count > 1 ? 'siguen' : 'sigue'} fallando después de la ronda de corrección ${earlier.round}` : count > 1 ? 'fallaron' : 'falló'} en el ${pull.link(`pull request #${pull.number}`)} (head ${head}). Ronda de corrección ${round} de ${of}: estoy mirando lo que informó la CI.`,
    passed: (checks, count, pull, head, round) =>
      `${checks} ${count > 1 ? 'pasan' : 'pasa'} en el ${pull.link(`pull request #${pull.number}`)} (head ${head}) después de la ronda de corrección ${round}.`,
    statusFailed: (context, pull, head, description, details) =>
      `${context} informó un fallo en el ${pull.link(`pull request #${pull.number}`)} (head ${head})${description ? `: «${description}»` : ''}.${details ? ` Detalles: ${details('la ejecución de la CI')}.` : ''} No puedo leer los logs de esa CI desde aquí, así que no empiezo una ronda de corrección a ciegas: pega aquí la salida del fallo o dime qué arreglar.`,
    couldNotAct: (kind, by, pull, error) =>
      `No pude actuar sobre ${EVENT_WORDS_ES[kind] ?? 'el evento'}${by ? ` de @${by}` : ''} en el ${pull.link(`pull request #${pull.number}`)}: ${error}. Cuando eso esté arreglado, vuelve a entregarlo desde la configuración de la GitHub App (Advanced → Recent Deliveries), o di aquí qué hacer.`,
  },
};
